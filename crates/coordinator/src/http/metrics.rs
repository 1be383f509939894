//! `GET /metrics`: the coordinator's figures in the Prometheus text format
//! (a wire format read by a scraper, not a report).

use std::fmt::Write;
use std::time::Instant;

use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;

use pf1e_wire::status::CoordinatorStats;

use super::state::AppState;
use crate::scheduler::{AuditCounts, Scheduler};

/// The figures `/metrics` shows, copied under the scheduler's lock so that
/// formatting them happens after it is released.
#[derive(Debug, Clone, Copy)]
pub struct Figures {
    stats: CoordinatorStats,
    running: usize,
    refused: u64,
    superseded: u64,
    audits: AuditCounts,
}

impl Figures {
    /// Reads the figures of `s` (a few counters; nothing scans the queue
    /// or the sweeps' history).
    pub fn of(s: &Scheduler) -> Self {
        Self {
            stats: s.coordinator_stats(Instant::now()),
            running: s.sweeps_running(),
            refused: s.reports_refused(),
            superseded: s.reports_superseded(),
            audits: s.audit_counts(),
        }
    }
}

/// The Prometheus text exposition of the coordinator's figures.
pub fn exposition(f: &Figures) -> String {
    let (c, running) = (&f.stats, f.running);
    let mut out = String::new();
    let mut metric = |name: &str, kind: &str, help: &str, value: String| {
        let _ = write!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}\n");
    };
    metric("pf1e_shards_queued", "gauge", "Shards waiting for a worker.", c.shards_queued.to_string());
    metric("pf1e_shards_leased", "gauge", "Shards leased to workers.", c.shards_leased.to_string());
    // The worker autoscaler's figure (deploy/k8s/worker.yaml): one series
    // rather than a sum the adapter would have to compute.
    metric(
        "pf1e_shards_pending",
        "gauge",
        "Shards not yet delivered: queued plus leased (the worker autoscaler's queue depth).",
        (c.shards_queued + c.shards_leased).to_string(),
    );
    metric("pf1e_shards_done_total", "counter", "Shards computed by workers.", c.shards_done.to_string());
    metric("pf1e_cache_hits_total", "counter", "Shards served from the cache.", c.cache_hits.to_string());
    metric("pf1e_workers", "gauge", "Registered workers.", c.workers.to_string());
    metric("pf1e_runs_done_total", "counter", "Battles computed by workers.", c.runs_done.to_string());
    metric(
        "pf1e_runs_per_second",
        "gauge",
        "Battles per second over the last 10 s.",
        format!("{:.3}", c.runs_per_second),
    );
    metric("pf1e_sweeps_running", "gauge", "Sweeps being measured.", running.to_string());
    metric(
        "pf1e_reports_refused_total",
        "counter",
        "Shard reports refused: for a shard the worker did not hold, or with tables that do not check out.",
        f.refused.to_string(),
    );
    metric(
        "pf1e_reports_superseded_total",
        "counter",
        "Shard reports for a shard already delivered: a duplicate, or a late report after another worker's.",
        f.superseded.to_string(),
    );
    let a = f.audits;
    metric(
        "pf1e_audits_passed_total",
        "counter",
        "Audited shards whose two workers' results agreed.",
        a.passed.to_string(),
    );
    metric(
        "pf1e_audits_disputed_total",
        "counter",
        "Audited shards whose two workers' results differed (the coordinator replayed them).",
        a.disputed.to_string(),
    );
    metric(
        "pf1e_audits_waived_total",
        "counter",
        "Audited shards accepted on one result: their worker was the only one registered.",
        a.waived.to_string(),
    );
    metric(
        "pf1e_workers_quarantined_total",
        "counter",
        "Workers quarantined for a result that differed from the coordinator's replay.",
        a.quarantined.to_string(),
    );
    out
}

pub(super) async fn metrics(State(st): State<AppState>) -> impl IntoResponse {
    // Only the counters are read under the lock; the text is built after.
    let figures = Figures::of(&st.service.lock());
    let mut body = exposition(&figures);
    let name = "pf1e_auth_failures_total";
    let _ = write!(
        body,
        "# HELP {name} Requests refused for a missing or wrong token (gRPC and HTTP).\n# TYPE {name} counter\n{name} {}\n",
        st.service.auth_failures()
    );
    let commits = st.service.commit_counts();
    for (name, help, value) in [
        (
            "pf1e_commits_total",
            "Durable transactions of shard results (a group commit holds the reports that arrived together).",
            commits.commits.load(std::sync::atomic::Ordering::Relaxed),
        ),
        (
            "pf1e_committed_shards_total",
            "Shard results committed by the group committer.",
            commits.shards.load(std::sync::atomic::Ordering::Relaxed),
        ),
    ] {
        let _ = write!(body, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {value}\n");
    }
    ([(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], body)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of one series in the exposition.
    fn value(text: &str, name: &str) -> Option<u64> {
        text.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
    }

    #[test]
    fn pending_shards_are_the_queued_plus_the_leased() {
        let stats = CoordinatorStats { shards_queued: 7, shards_leased: 5, ..Default::default() };
        let f = Figures { stats, running: 1, refused: 0, superseded: 0, audits: AuditCounts::default() };
        let text = exposition(&f);
        assert_eq!(value(&text, "pf1e_shards_queued"), Some(7));
        assert_eq!(value(&text, "pf1e_shards_leased"), Some(5));
        assert_eq!(value(&text, "pf1e_shards_pending"), Some(12));
        assert!(text.contains("# TYPE pf1e_shards_pending gauge\n"), "{text}");
        let idle = Figures { stats: CoordinatorStats::default(), ..f };
        assert_eq!(value(&exposition(&idle), "pf1e_shards_pending"), Some(0));
    }

    /// Every document of a multi-document YAML file of `deploy/k8s/`.
    fn manifests(name: &str) -> Vec<serde_yaml::Value> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/k8s").join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        serde_yaml::Deserializer::from_str(&text)
            .map(|d| serde::Deserialize::deserialize(d).unwrap())
            .collect()
    }

    /// The queue depth autoscaler reads a metric the coordinator exports,
    /// under the name prometheus-adapter's rules give it (the schemas of
    /// `.ci/run` check the manifests' shape, not these names).
    #[test]
    fn the_worker_autoscaler_reads_a_metric_the_coordinator_exports() {
        let hpa = manifests("worker.yaml")
            .into_iter()
            .find(|d| d["kind"] == "HorizontalPodAutoscaler")
            .expect("an autoscaler in worker.yaml");
        let metric = &hpa["spec"]["metrics"][0]["external"]["metric"]["name"];
        let name = metric.as_str().expect("an external metric");
        let text = exposition(&Figures {
            stats: CoordinatorStats::default(),
            running: 0,
            refused: 0,
            superseded: 0,
            audits: AuditCounts::default(),
        });
        assert!(value(&text, name).is_some(), "the coordinator exports no {name}");
        let adapter = manifests("prometheus-adapter.yaml").remove(0);
        let config = adapter["data"]["config.yaml"].as_str().expect("the adapter's config.yaml");
        let config: serde_yaml::Value = serde_yaml::from_str(config).unwrap();
        let rule = &config["externalRules"][0];
        assert_eq!(rule["name"]["as"].as_str(), Some(name));
        assert!(rule["seriesQuery"].as_str().is_some_and(|q| q.starts_with(name)), "{rule:?}");
    }

    /// The files a container sees from the `pf1e-tls` Secret, which must
    /// be required (`optional: false`): mount path joined to each item.
    fn tls_files(pod: &serde_yaml::Value, container: &serde_yaml::Value) -> Vec<String> {
        let volume = pod["volumes"].as_sequence().and_then(|v| v.iter().find(|v| v["name"] == "tls"));
        let secret = &volume.expect("a tls volume")["secret"];
        assert_eq!(secret["secretName"].as_str(), Some("pf1e-tls"));
        assert_eq!(secret["optional"].as_bool(), Some(false), "the TLS Secret is required");
        let mount =
            container["volumeMounts"].as_sequence().and_then(|m| m.iter().find(|m| m["name"] == "tls"));
        let mount = mount.expect("the tls volume mounted");
        assert_eq!(mount["readOnly"].as_bool(), Some(true));
        let dir = mount["mountPath"].as_str().unwrap();
        let items = secret["items"].as_sequence().expect("the Secret's keys listed (each then required)");
        items.iter().map(|i| format!("{dir}/{}", i["path"].as_str().unwrap())).collect()
    }

    /// Removes `key` from a mapping and returns its value.
    fn take(v: &mut serde_yaml::Value, key: &str) -> serde_yaml::Value {
        v.as_mapping_mut().and_then(|m| m.remove(key)).unwrap_or_else(|| panic!("no {key} in {v:?}"))
    }

    /// Drops the tls volume and its mount (and the lists they leave empty).
    fn drop_tls_volume(pod: &mut serde_yaml::Value) {
        fn drop_named(holder: &mut serde_yaml::Value, list: &str) {
            let seq = holder[list].as_sequence_mut().unwrap();
            seq.retain(|v| v["name"] != "tls");
            if seq.is_empty() {
                take(holder, list);
            }
        }
        drop_named(&mut pod["containers"][0], "volumeMounts");
        drop_named(pod, "volumes");
    }

    /// `args` ends with `tail`; returns them without it.
    fn strip_args(container: &mut serde_yaml::Value, tail: &[&str]) {
        let args = container["args"].as_sequence_mut().unwrap();
        let at = args.len() - tail.len();
        let found: Vec<&str> = args[at..].iter().map(|a| a.as_str().unwrap()).collect();
        assert_eq!(found, tail);
        args.truncate(at);
    }

    /// deploy/k8s/tls/ is the plain manifests plus the TLS wiring and
    /// nothing else (an image, port, token or autoscaler change made to
    /// one and not the other fails here), and every TLS path its
    /// arguments name is a file of the required, mounted Secret.
    #[test]
    fn the_tls_manifests_are_the_plain_ones_plus_tls() {
        let plain = manifests("coordinator.yaml");
        let mut tls = manifests("tls/coordinator.yaml");
        let set = &mut tls[0];
        assert_eq!(
            take(&mut set["spec"]["template"]["metadata"]["annotations"], "prometheus.io/scheme"),
            "https"
        );
        let pod = &mut set["spec"]["template"]["spec"];
        let files = tls_files(pod, &pod["containers"][0]);
        for f in ["/etc/pf1e/tls/tls.crt", "/etc/pf1e/tls/tls.key", "/etc/pf1e/tls/ca.crt"] {
            assert!(files.iter().any(|x| x == f), "{f} not mounted: {files:?}");
        }
        drop_tls_volume(pod);
        let c = &mut pod["containers"][0];
        strip_args(c, &["--tls-cert", "/etc/pf1e/tls/tls.crt", "--tls-key", "/etc/pf1e/tls/tls.key"]);
        assert_eq!(take(&mut c["readinessProbe"]["httpGet"], "scheme"), "HTTPS");
        let live = take(&mut c["livenessProbe"], "exec");
        let command: Vec<&str> =
            live["command"].as_sequence().unwrap().iter().filter_map(|a| a.as_str()).collect();
        assert_eq!(
            command,
            [
                "/usr/local/bin/pf1e",
                "ctl",
                "health",
                "--coordinator",
                "https://127.0.0.1:7070",
                "--tls-ca",
                "/etc/pf1e/tls/ca.crt"
            ]
        );
        assert!(
            take(&mut c["livenessProbe"], "timeoutSeconds").as_u64() >= Some(2),
            "a TLS handshake in 1 s"
        );
        let plain_live =
            plain[0]["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]["grpc"].clone();
        assert_eq!(plain_live["port"].as_u64(), Some(7070));
        c["livenessProbe"]["grpc"] = plain_live;
        // Mappings compare regardless of key order.
        let text = |docs: &[serde_yaml::Value]| serde_yaml::to_string(docs).unwrap();
        assert!(
            tls == plain,
            "tls/coordinator.yaml drifted from coordinator.yaml:\n{}\n{}",
            text(&tls),
            text(&plain)
        );

        let plain = manifests("worker.yaml");
        let mut tls = manifests("tls/worker.yaml");
        let pod = &mut tls[0]["spec"]["template"]["spec"];
        let files = tls_files(pod, &pod["containers"][0]);
        assert_eq!(files, ["/etc/pf1e/tls/ca.crt"], "workers see the CA, never the key");
        drop_tls_volume(pod);
        let c = &mut pod["containers"][0];
        strip_args(c, &["--tls-ca", "/etc/pf1e/tls/ca.crt"]);
        let url = &mut c["env"][0];
        assert_eq!(url["name"], "PF1E_COORDINATOR");
        assert_eq!(url["value"], "https://pf1e-coordinator:7070", "the name the certificate carries");
        url["value"] = "http://pf1e-coordinator:7070".into();
        assert!(tls == plain, "tls/worker.yaml drifted from worker.yaml:\n{}\n{}", text(&tls), text(&plain));
    }
}
