//! The coordinator's HTTP side with real processes on loopback: the JSON API
//! prints what `ctl --json` prints, refuses what it should (401, 404, 405,
//! 409), streams events in order while a sweep runs, and serves HTTPS when
//! gRPC has TLS, with the arguments of deploy/k8s/tls/.

use std::time::{Duration, Instant};

use pf1e_e2e::{
    Coordinator, Fixture, TIMEOUT, ctl, json_of, pf1e, run, start_coordinator, start_worker,
    start_worker_bin, wait_for,
};
use serde_json::Value;

const TOKEN: &str = "http-s3cret";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap()
}

/// The HTTP base URL of a coordinator.
fn base(c: &Coordinator) -> String {
    format!("http://{}", c.http.as_deref().expect("the coordinator serves HTTP"))
}

async fn get(client: &reqwest::Client, url: &str, token: Option<&str>) -> (u16, String) {
    let mut req = client.get(url);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let r = req.send().await.unwrap_or_else(|e| panic!("GET {url}: {e}"));
    (r.status().as_u16(), r.text().await.unwrap())
}

async fn get_json(client: &reqwest::Client, url: &str, token: Option<&str>) -> Value {
    let (code, body) = get(client, url, token).await;
    assert_eq!(code, 200, "GET {url}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {url}: not JSON ({e}): {body}"))
}

async fn post(client: &reqwest::Client, url: &str, token: Option<&str>) -> (u16, String) {
    let mut req = client.post(url).header("content-type", "application/json");
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let r = req.send().await.unwrap_or_else(|e| panic!("POST {url}: {e}"));
    (r.status().as_u16(), r.text().await.unwrap())
}

fn submit(url: &str, sweep: &std::path::Path, env: &[(&str, &str)]) -> String {
    let mut cmd = pf1e();
    cmd.args(["ctl", "--coordinator", url, "submit"]).arg(sweep);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = pf1e_e2e::run(cmd);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().lines().last().unwrap().to_string()
}

/// `{"error": …}` with the status code.
fn assert_error(code_body: (u16, String), code: u16, words: &str) {
    let (got, body) = code_body;
    assert_eq!(got, code, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"));
    let message = v["error"].as_str().unwrap_or_else(|| panic!("no error member: {body}"));
    assert!(message.contains(words), "{message:?} does not say {words:?}");
}

#[test]
fn the_json_api_prints_what_ctl_prints_and_refuses_bad_requests() {
    let fx = Fixture::new("http-api", 40, 10);
    let c = start_coordinator(&fx.path("c.redb"), "127.0.0.1:0", &[], &[]);
    let _w = start_worker(&c.url, &["--threads", "1"], &[]);
    let id = submit(&c.url, &fx.sweep(), &[]);
    wait_for(&c.url, &id, "the sweep to finish", |s| s["status"] == "done");
    let http = base(&c);
    let client = client();
    runtime().block_on(async {
        // The same documents as ctl, key for key.
        let sweep = get_json(&client, &format!("{http}/api/sweeps/{id}"), None).await;
        assert_eq!(sweep, json_of(&ctl(&c.url, &["status", &id, "--json"])));
        let results = get_json(&client, &format!("{http}/api/sweeps/{id}/results"), None).await;
        assert_eq!(results, json_of(&ctl(&c.url, &["results", &id, "--json"])));
        assert_eq!(results["results"]["jobs"][0]["cells"].as_array().unwrap().len(), 2);
        let all = get_json(&client, &format!("{http}/api/sweeps"), None).await;
        let ctl_all = json_of(&ctl(&c.url, &["status", "--json"]));
        assert_eq!(all["sweeps"], ctl_all["sweeps"]);
        let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(&all["coordinator"]), keys(&ctl_all["coordinator"]));
        assert_eq!(all["coordinator"]["shards_done"], 8);
        let workers = get_json(&client, &format!("{http}/api/workers"), None).await;
        let ctl_workers = json_of(&ctl(&c.url, &["workers", "--json"]));
        let ids = |v: &Value| {
            v.as_array()
                .unwrap()
                .iter()
                .map(|w| (w["id"].clone(), w["name"].clone(), w["threads"].clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(&workers), ids(&ctl_workers));
        assert_eq!(workers[0]["threads"], 1);
        let about = get_json(&client, &format!("{http}/api/about"), None).await;
        assert_eq!(about["rules_version"], pf1e_engine::RULES_VERSION);
        assert_eq!(about["protocol_version"], pf1e_wire::PROTOCOL_VERSION);

        // report.md in both languages: what `ctl results ID --format md` prints, byte for byte.
        for lang in ["en", "fr"] {
            let (code, md) =
                get(&client, &format!("{http}/api/sweeps/{id}/report.md?lang={lang}"), None).await;
            assert_eq!(code, 200, "{md}");
            let out = ctl(&c.url, &["--lang", lang, "results", &id, "--format", "md"]);
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(md, String::from_utf8_lossy(&out.stdout), "report.md in {lang}");
        }
        let (_, fr) = get(&client, &format!("{http}/api/sweeps/{id}/report.md?lang=fr"), None).await;
        assert!(fr.contains(", groupe "), "French words: {fr}");
        let (_, en) = get(&client, &format!("{http}/api/sweeps/{id}/report.md"), None).await;
        assert!(en.contains(", party "), "English by default: {en}");
        let r = client.get(format!("{http}/api/sweeps/{id}/report.md")).send().await.unwrap();
        assert_eq!(r.headers()["content-type"], "text/markdown; charset=utf-8");
        assert_error(
            get(&client, &format!("{http}/api/sweeps/{id}/report.md?lang=de"), None).await,
            400,
            "lang \"de\" is not one of en, fr",
        );
        assert_error(get(&client, &format!("{http}/api/sweeps/99/report.md?lang=fr"), None).await, 404, "99");

        // Cancelling a finished sweep changes nothing.
        let (code, body) = post(&client, &format!("{http}/api/sweeps/{id}/cancel"), None).await;
        assert_eq!(code, 200, "{body}");
        assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["status"], "done");

        // Metrics and probes.
        let (code, metrics) = get(&client, &format!("{http}/metrics"), None).await;
        assert_eq!(code, 200);
        assert!(metrics.contains("\npf1e_shards_done_total 8\n"), "{metrics}");
        assert_eq!(get(&client, &format!("{http}/healthz"), None).await, (200, "ok\n".to_string()));
        assert_eq!(get(&client, &format!("{http}/readyz"), None).await, (200, "ready\n".to_string()));

        // Without a token, a foreign page cannot cancel through the browser:
        // a text/plain form post, a foreign Origin and a rebinding Host are refused.
        let cancel = format!("{http}/api/sweeps/{id}/cancel");
        let r = client.post(&cancel).header("content-type", "text/plain").body("x").send().await.unwrap();
        assert_eq!(r.status().as_u16(), 415, "{}", r.text().await.unwrap());
        let r = client
            .post(&cancel)
            .header("content-type", "application/json")
            .header("origin", "https://evil.example")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 403);
        let r = client.get(format!("{http}/api/sweeps")).header("host", "evil.example").send().await.unwrap();
        assert_eq!(r.status().as_u16(), 421);
        let r = client.post(&cancel).header("x-pf1e-request", "1").send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200, "the dashboard's own header passes");

        // Refusals: unknown paths and sweeps, ids that are not numbers, wrong methods.
        assert_error(get(&client, &format!("{http}/nope"), None).await, 404, "/nope");
        assert_error(get(&client, &format!("{http}/api/sweeps/99"), None).await, 404, "no sweep with id 99");
        assert_error(get(&client, &format!("{http}/api/sweeps/99/results"), None).await, 404, "99");
        assert_error(post(&client, &format!("{http}/api/sweeps/99/cancel"), None).await, 404, "99");
        assert_error(get(&client, &format!("{http}/api/sweeps/abc"), None).await, 400, "abc");
        assert_error(get(&client, &format!("{http}/api/events?sweep=x"), None).await, 400, "\"x\"");
        assert_error(get(&client, &format!("{http}/api/events?sweeps=1"), None).await, 400, "sweeps");
        assert_error(get(&client, &format!("{http}/assets/nope.js"), None).await, 404, "nope.js");
        assert_eq!(post(&client, &format!("{http}/metrics"), None).await.0, 405);
        assert_eq!(get(&client, &format!("{http}/api/sweeps/{id}/cancel"), None).await.0, 405);
        assert_eq!(post(&client, &format!("{http}/api/sweeps"), None).await.0, 405);
    });
}

#[test]
fn with_a_token_nothing_is_readable_without_it_and_cancel_needs_it() {
    let fx = Fixture::new("http-token", 40, 10);
    let env = [("PF1E_TOKEN", TOKEN)];
    let c = start_coordinator(&fx.path("c.redb"), "127.0.0.1:0", &[], &env);
    // No worker: the sweep stays running.
    let id = submit(&c.url, &fx.sweep(), &env);
    let http = base(&c);
    let client = client();
    runtime().block_on(async {
        let data = [
            "/api/about".to_string(),
            "/api/sweeps".into(),
            format!("/api/sweeps/{id}"),
            format!("/api/sweeps/{id}/results"),
            "/api/workers".into(),
            "/api/events".into(),
            format!("/api/events?sweep={id}"),
            "/metrics".into(),
        ];
        for path in &data {
            for token in [None, Some("wrong")] {
                let r = client.get(format!("{http}{path}"));
                let r = if let Some(t) = token { r.bearer_auth(t) } else { r };
                let r = r.send().await.unwrap();
                assert_eq!(r.status().as_u16(), 401, "GET {path} with {token:?}");
                assert_eq!(r.headers()["www-authenticate"], "Bearer");
                let body = r.text().await.unwrap();
                assert!(body.contains("token") && !body.contains(TOKEN), "{body}");
            }
        }
        // The pages hold no data and load without it (they ask for it); so do the probes.
        for path in ["/", "/sweeps/1", "/assets/common.js", "/assets/style.css", "/healthz", "/readyz"] {
            assert_eq!(get(&client, &format!("{http}{path}"), None).await.0, 200, "{path}");
        }
        let page = client.get(format!("{http}/")).send().await.unwrap();
        let csp = page.headers()["content-security-policy"].to_str().unwrap().to_string();
        assert!(csp.contains("script-src 'self'") && csp.contains("connect-src 'self'"), "{csp}");

        // With the token: the documents; a running sweep has no results yet.
        let sweep = get_json(&client, &format!("{http}/api/sweeps/{id}"), Some(TOKEN)).await;
        assert_eq!(sweep["status"], "running");
        assert_error(
            get(&client, &format!("{http}/api/sweeps/{id}/results"), Some(TOKEN)).await,
            409,
            "running",
        );
        // Cancel is a POST with the token.
        assert_eq!(post(&client, &format!("{http}/api/sweeps/{id}/cancel"), None).await.0, 401);
        assert_eq!(post(&client, &format!("{http}/api/sweeps/{id}/cancel"), Some("wrong")).await.0, 401);
        assert_eq!(
            get_json(&client, &format!("{http}/api/sweeps/{id}"), Some(TOKEN)).await["status"],
            "running"
        );
        // The scheme in any case; every refusal so far counted in /metrics.
        let r = client
            .get(format!("{http}/metrics"))
            .header("authorization", format!("bearer {TOKEN}"))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200);
        let metrics = r.text().await.unwrap();
        let refused = 2 * data.len() + 2;
        assert!(metrics.contains(&format!("\npf1e_auth_failures_total {refused}\n")), "{metrics}");
        let (code, body) = post(&client, &format!("{http}/api/sweeps/{id}/cancel"), Some(TOKEN)).await;
        assert_eq!(code, 200, "{body}");
        assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["status"], "cancelled");
    });
    let mut cmd = pf1e();
    cmd.args(["ctl", "--coordinator", &c.url, "status", &id, "--json"]).env("PF1E_TOKEN", TOKEN);
    assert_eq!(json_of(&pf1e_e2e::run(cmd))["status"], "cancelled");
}

/// One parsed server-sent event.
#[derive(Debug)]
struct Sse {
    id: u64,
    event: String,
    data: Value,
}

/// Reads events from a streaming response until `stop` holds for one.
async fn read_events(resp: &mut reqwest::Response, stop: impl Fn(&Sse) -> bool) -> Vec<Sse> {
    let start = Instant::now();
    let mut buf = String::new();
    let mut out = Vec::new();
    loop {
        assert!(start.elapsed() < TIMEOUT, "timed out; events so far: {out:?}");
        let chunk = tokio::time::timeout(Duration::from_secs(30), resp.chunk())
            .await
            .expect("an event at least every few seconds")
            .expect("the stream stays open")
            .expect("the stream does not end");
        buf.push_str(std::str::from_utf8(&chunk).unwrap());
        while let Some(end) = buf.find("\n\n") {
            let block: String = buf.drain(..end + 2).collect();
            let (mut id, mut event, mut data) = (None, String::new(), String::new());
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("id:") {
                    id = Some(v.trim().parse::<u64>().expect("numeric event ids"));
                } else if let Some(v) = line.strip_prefix("event:") {
                    event = v.trim().to_string();
                } else if let Some(v) = line.strip_prefix("data:") {
                    data.push_str(v.strip_prefix(' ').unwrap_or(v));
                }
            }
            let e = Sse {
                id: id.expect("every event has an id"),
                event,
                data: serde_json::from_str(&data).unwrap(),
            };
            let done = stop(&e);
            out.push(e);
            if done {
                return out;
            }
        }
    }
}

#[test]
fn events_arrive_in_order_while_a_sweep_runs() {
    let fx = Fixture::new("http-events", 40, 10);
    let sweep = fx.write_sweep(
        "map.yaml",
        &Fixture::sweep_text(20, 10).replace(
            "  - grid: { hp: { players: [0.5, 1.0] } }\n",
            "  - danger_map: { fractions: [0.25, 0.5, 0.75, 1.0], criterion: p_any_death, threshold: 0.3, depth: 1 }\n",
        ),
    );
    let c = start_coordinator(&fx.path("c.redb"), "127.0.0.1:0", &[], &[]);
    let id = submit(&c.url, &sweep, &[]);
    let http = base(&c);
    let client = client();
    runtime().block_on(async {
        let mut resp = client.get(format!("{http}/api/events?sweep={id}")).send().await.unwrap();
        assert_eq!(resp.status().as_u16(), 200);
        assert_eq!(resp.headers()["content-type"], "text/event-stream");
        // The first snapshot comes at once: the sweep waits for a worker.
        let first = read_events(&mut resp, |e| e.event == "sweep").await;
        let names: Vec<&str> = first.iter().map(|e| e.event.as_str()).collect();
        assert_eq!(names, ["status", "workers", "sweep"]);
        let live = &first[2].data;
        assert_eq!(live["sweep"]["status"], "running");
        assert_eq!(live["sweep"]["stats"]["runs_done"], 0);
        assert_eq!(live["jobs"][0]["kind"], "danger_map");
        assert_eq!(live["jobs"][0]["result"]["layers"][0]["points"], serde_json::json!([]));

        let _w = start_worker(&c.url, &["--threads", "1"], &[]);
        let rest =
            read_events(&mut resp, |e| e.event == "sweep" && e.data["sweep"]["status"] != "running").await;
        let events: Vec<&Sse> = first.iter().chain(&rest).collect();
        for pair in events.windows(2) {
            assert_eq!(pair[1].id, pair[0].id + 1, "ids follow each other");
        }
        let sweeps: Vec<&Value> = events.iter().filter(|e| e.event == "sweep").map(|e| &e.data).collect();
        for pair in sweeps.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            for counter in ["runs_done", "cells_done", "runs_total"] {
                assert!(
                    b["sweep"]["stats"][counter].as_u64() >= a["sweep"]["stats"][counter].as_u64(),
                    "{counter} went backwards: {a} then {b}"
                );
            }
            let points = |v: &Value| v["jobs"][0]["result"]["layers"][0]["points"].as_array().map(Vec::len);
            if let (Some(x), Some(y)) = (points(a), points(b)) {
                assert!(y >= x, "the live map lost points");
            }
        }
        let last = sweeps.last().unwrap();
        assert_eq!(last["sweep"]["status"], "done");
        assert!(last["jobs"].is_null(), "an ended sweep's results are final: {last}");
        // Every status event lists the sweep, and the last one agrees with ctl.
        let status = events.iter().rev().find(|e| e.event == "status").unwrap();
        assert_eq!(status.data["sweeps"][0]["id"].as_u64().unwrap().to_string(), id);
        let workers = events.iter().rev().find(|e| e.event == "workers").unwrap();
        assert_eq!(workers.data.as_array().unwrap().len(), 1);
        let results = get_json(&client, &format!("{http}/api/sweeps/{id}/results"), None).await;
        assert_eq!(results["results"], json_of(&ctl(&c.url, &["results", &id, "--json"]))["results"]);
        let points = results["results"]["jobs"][0]["result"]["points"].as_array().unwrap().len();
        assert!(points >= 16, "the 4×4 grid and its refinement: {points}");
    });
}

#[test]
fn https_when_grpc_has_tls_and_no_http_when_asked() {
    let fx = Fixture::new("http-tls", 4, 2);
    let cert =
        rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_string(), "localhost".to_string()]).unwrap();
    std::fs::write(fx.path("cert.pem"), cert.cert.pem()).unwrap();
    std::fs::write(fx.path("key.pem"), cert.signing_key.serialize_pem()).unwrap();
    let c = start_coordinator(
        &fx.path("c.redb"),
        "127.0.0.1:0",
        &[
            "--tls-cert",
            fx.path("cert.pem").to_str().unwrap(),
            "--tls-key",
            fx.path("key.pem").to_str().unwrap(),
        ],
        &[],
    );
    let addr = c.http.clone().unwrap();
    let _ = rustls::crypto::ring::default_provider().install_default();
    let ca = reqwest::Certificate::from_pem(cert.cert.pem().as_bytes()).unwrap();
    let tls =
        reqwest::Client::builder().tls_certs_only([ca]).timeout(Duration::from_secs(30)).build().unwrap();
    runtime().block_on(async {
        let r = tls.get(format!("https://{addr}/healthz")).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200);
        let doc = tls.get(format!("https://{addr}/api/sweeps")).send().await.unwrap().text().await.unwrap();
        assert!(doc.contains("\"sweeps\":[]"), "{doc}");
        // Plain HTTP is not served on an HTTPS listener.
        let plain = client().get(format!("http://{addr}/healthz")).send().await;
        assert!(plain.map(|r| !r.status().is_success()).unwrap_or(true), "plain HTTP answered");
    });
    // --no-http: no HTTP line, nothing on the next port.
    let none = start_coordinator(&fx.path("d.redb"), "127.0.0.1:0", &["--no-http"], &[]);
    assert!(none.http.is_none());
    let out = ctl(&none.url, &["status", "--json"]);
    assert!(out.status.success());
}

/// The container of the first document of `deploy/k8s/tls/NAME`.
fn tls_manifest_container(name: &str) -> serde_yaml::Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/k8s/tls").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let first = text.split("\n---\n").next().unwrap();
    let doc: serde_yaml::Value = serde_yaml::from_str(first).unwrap();
    doc["spec"]["template"]["spec"]["containers"][0].clone()
}

/// The strings of a YAML list, each passed through `map`.
fn strings(list: &serde_yaml::Value, map: impl Fn(&str) -> String) -> Vec<String> {
    list.as_sequence().unwrap().iter().map(|a| map(a.as_str().unwrap())).collect()
}

/// The arguments of deploy/k8s/tls/ over real processes: the coordinator
/// with the manifest's TLS arguments and a certificate signed by a CA, as
/// docs/deploy.md makes it (names `pf1e-coordinator` and 127.0.0.1); the
/// liveness probe's exec command exits 0 (and fails without the CA); the
/// readiness probe's /readyz answers over HTTPS on the metrics port; a
/// `pf1e-worker` with the manifest's arguments plays a sweep to the
/// embedded results. Only the host differs: the test cannot resolve
/// `pf1e-coordinator`, so the worker connects to 127.0.0.1.
#[test]
fn the_tls_manifests_arguments_serve_a_sweep_over_real_processes() {
    let fx = Fixture::new("tls-manifests", 4, 2);
    let reference = fx.embedded_results();
    let dir = fx.path("tls");
    std::fs::create_dir_all(&dir).unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca = rcgen::CertifiedIssuer::self_signed(ca_params, rcgen::KeyPair::generate().unwrap()).unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let names = deploy_doc_certificate_names();
    let leaf = rcgen::CertificateParams::new(names.clone()).unwrap().signed_by(&key, &ca).unwrap();
    std::fs::write(dir.join("ca.crt"), ca.pem()).unwrap();
    std::fs::write(dir.join("tls.crt"), leaf.pem()).unwrap();
    std::fs::write(dir.join("tls.key"), key.serialize_pem()).unwrap();
    let local = |a: &str| {
        let a = a.replace("/etc/pf1e/tls", dir.to_str().unwrap());
        let a = a.replace("/var/lib/pf1e/pf1e.redb", fx.path("c.redb").to_str().unwrap());
        match a.strip_prefix("0.0.0.0:") {
            Some(_) => "127.0.0.1:0".to_string(),
            None => a,
        }
    };

    let coordinator = tls_manifest_container("coordinator.yaml");
    let args = strings(&coordinator["args"], local);
    assert_eq!(
        args[..5],
        ["coordinator", "--listen", "127.0.0.1:0", "--db", fx.path("c.redb").to_str().unwrap()]
    );
    let extra: Vec<&str> = args[5..].iter().map(String::as_str).collect();
    assert!(extra.contains(&"--tls-cert") && extra.contains(&"--metrics-listen"), "{extra:?}");
    let c = start_coordinator(&fx.path("c.redb"), "127.0.0.1:0", &extra, &[]);
    let url = format!("https://{}", c.addr);

    // Liveness: the exec probe's command, on this coordinator's port.
    let probe = strings(&coordinator["livenessProbe"]["exec"]["command"], |a| {
        local(a).replace("https://127.0.0.1:7070", &url)
    });
    assert_eq!(probe[0], "/usr/local/bin/pf1e", "the image's binary");
    let mut live = pf1e();
    live.args(&probe[1..]);
    let out = run(live);
    assert!(out.status.success(), "{probe:?}: {}", String::from_utf8_lossy(&out.stderr));
    let mut untrusted = pf1e();
    untrusted.args(&probe[1..probe.len() - 2]);
    assert!(!run(untrusted).status.success(), "the probe passed without the CA");

    // Readiness: /readyz over HTTPS on the metrics port (the certificate checked here).
    let ready = &coordinator["readinessProbe"]["httpGet"];
    assert_eq!((ready["scheme"].as_str(), ready["port"].as_str()), (Some("HTTPS"), Some("metrics")));
    let _ = rustls::crypto::ring::default_provider().install_default();
    let ca_cert = reqwest::Certificate::from_pem(ca.pem().as_bytes()).unwrap();
    let https = reqwest::Client::builder().tls_certs_only([ca_cert]).timeout(TIMEOUT).build().unwrap();
    let metrics = c.metrics.clone().expect("the manifest's --metrics-listen");
    let path = ready["path"].as_str().unwrap();
    let status = runtime().block_on(async {
        https.get(format!("https://{metrics}{path}")).send().await.map(|r| r.status().as_u16())
    });
    assert_eq!(status.unwrap(), 200);

    // A worker with the manifest's arguments, and a sweep over TLS.
    let worker = tls_manifest_container("worker.yaml");
    let env = &worker["env"][0];
    assert_eq!(env["value"].as_str(), Some("https://pf1e-coordinator:7070"));
    let worker_args = strings(&worker["args"], local);
    let worker_args: Vec<&str> = worker_args.iter().map(String::as_str).collect();
    let _w = start_worker_bin(&url, &worker_args);
    let ca_file = dir.join("ca.crt");
    let submit = ctl(
        &url,
        &["--tls-ca", ca_file.to_str().unwrap(), "submit", fx.sweep().to_str().unwrap(), "-q", "--watch"],
    );
    let stdout = String::from_utf8_lossy(&submit.stdout).to_string();
    assert!(submit.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&submit.stderr));
    let id = stdout.lines().last().unwrap().trim().to_string();
    let doc = json_of(&ctl(&url, &["--tls-ca", ca_file.to_str().unwrap(), "results", &id, "--json"]));
    assert_eq!(doc["results"], reference, "TLS and embedded results differ");

    // The name the workers dial is one the certificate carries, and the
    // client checks it: a TLS session verified as that name works, one
    // verified as another name is refused.
    let dialled = url::Url::parse(env["value"].as_str().unwrap()).unwrap();
    let service = dialled.host_str().unwrap().to_string();
    assert!(names.contains(&service), "docs/deploy.md's certificate does not name {service:?}: {names:?}");
    let probe_command = strings(&coordinator["livenessProbe"]["exec"]["command"], |a| a.to_string());
    let probe_host = probe_command
        .iter()
        .skip_while(|a| *a != "--coordinator")
        .nth(1)
        .and_then(|u| url::Url::parse(u).ok())
        .and_then(|u| u.host_str().map(str::to_string));
    assert!(probe_host.is_some_and(|h| names.contains(&h)), "the liveness probe's host is not in {names:?}");
    let list_as = |name: &str| -> Result<usize, String> {
        runtime().block_on(async {
            let tls = tonic::transport::ClientTlsConfig::new()
                .ca_certificate(tonic::transport::Certificate::from_pem(ca.pem()))
                .domain_name(name);
            let channel = tonic::transport::Endpoint::from_shared(url.clone())
                .map_err(|e| e.to_string())?
                .tls_config(tls)
                .map_err(|e| e.to_string())?
                .connect_timeout(TIMEOUT)
                .connect()
                .await
                .map_err(|e| format!("{e:?}"))?;
            let mut control = pf1e_wire::proto::control_service_client::ControlServiceClient::new(channel);
            let listed =
                control.list(pf1e_wire::proto::ListRequest {}).await.map_err(|e| format!("{e:?}"))?;
            Ok(listed.into_inner().sweeps.len())
        })
    };
    assert_eq!(list_as(&service), Ok(1), "gRPC verified as {service:?}");
    let other = list_as("pf1e-elsewhere");
    assert!(other.is_err(), "a session verified as a name the certificate lacks was accepted: {other:?}");
}

/// The names docs/deploy.md puts in the coordinator's certificate (its
/// `subjectAltName=DNS:…,IP:…` line), without their `DNS:`/`IP:` tags.
fn deploy_doc_certificate_names() -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/deploy.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("subjectAltName="))
        .expect("a subjectAltName line in docs/deploy.md");
    let list = line.split("subjectAltName=").nth(1).unwrap();
    let list = &list[..list.find('\'').expect("the quoted list ends")];
    let names: Vec<String> = list
        .split(',')
        .map(|n| n.trim().trim_start_matches("DNS:").trim_start_matches("IP:").to_string())
        .collect();
    assert!(names.len() >= 2, "{names:?}");
    names
}
