//! The worker protocol at the gRPC level: duplicate and late reports, a
//! worker with other rules, an invalid bundle and the metrics endpoint
//! change nothing they should not.

use std::collections::BTreeMap;
use std::sync::Arc;

use pf1e_coordinator::sweep::bundle_from_disk;
use pf1e_e2e::{Fixture, ctl, json_of, start_coordinator, start_worker};
use pf1e_wire::auth::ClientAuth;
use pf1e_wire::client::{Target, Worker};
use pf1e_wire::evaluate::evaluate_leases;
use pf1e_wire::proto;
use pf1e_wire::scenario::Scenario;
use pf1e_wire::shard::{Lease, decode_leases};
use pf1e_worker::EngineEvaluator;

fn target(url: &str) -> Target {
    Target { url: url.to_string(), auth: ClientAuth::new(None).unwrap(), tls_ca: None }
}

async fn register(w: &mut Worker, rules: &str) -> Result<String, tonic::Status> {
    register_named(w, "test", rules).await
}

async fn register_named(w: &mut Worker, name: &str, rules: &str) -> Result<String, tonic::Status> {
    let req = proto::RegisterRequest {
        name: name.into(),
        threads: 1,
        rules_version: rules.into(),
        protocol_version: pf1e_wire::PROTOCOL_VERSION,
    };
    w.register(req).await.map(|r| r.into_inner().worker_id)
}

async fn play(w: &mut Worker, answer: &proto::LeaseResponse) -> Vec<proto::ShardReport> {
    let mut scenarios = BTreeMap::new();
    let leases: Vec<Lease> =
        decode_leases(answer).into_iter().map(|l| l.expect("a readable lease")).collect();
    for l in &leases {
        let hash = pf1e_wire::canon::hex(&l.spec.scenario);
        let b = w.fetch_scenario(proto::FetchScenarioRequest { hash }).await.unwrap().into_inner();
        scenarios
            .insert(l.spec.scenario, Arc::new(Scenario::try_from(&b).expect("scenario matches its hash")));
    }
    evaluate_leases(&leases, &scenarios, &EngineEvaluator::new())
        .iter()
        .map(proto::ShardReport::from)
        .collect()
}

/// Changes the result a report carries (encoded since protocol 7).
fn edit(report: &mut proto::ShardReport, change: impl FnOnce(&mut proto::ShardResult)) {
    use prost::Message;
    let mut result = proto::ShardResult::decode(report.result.as_slice()).expect("a result");
    change(&mut result);
    report.result = result.encode_to_vec();
}

#[test]
fn duplicate_and_late_reports_and_other_rules_change_nothing() {
    let fx = Fixture::new("grpc", 4, 2);
    let reference = fx.embedded_results();
    let c = start_coordinator(&fx.path("c.redb"), "127.0.0.1:0", &["--metrics-listen", "127.0.0.1:0"], &[]);
    let out = ctl(&c.url, &["submit", fx.sweep().to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let id = String::from_utf8_lossy(&out.stdout).trim().lines().last().unwrap().to_string();

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let t = target(&c.url);
        let mut w = t.worker().await.unwrap();

        // A worker with other rules is refused, and cannot lease under a made-up id.
        let e = register(&mut w, "pf1e-rules-0").await.unwrap_err();
        assert_eq!(e.code(), tonic::Code::FailedPrecondition);
        assert!(
            e.message().contains("pf1e-rules-0") && e.message().contains(pf1e_engine::RULES_VERSION),
            "{e:?}"
        );
        let e = w.lease(proto::LeaseRequest { worker_id: "w999".into(), max_shards: 8 }).await.unwrap_err();
        assert_eq!(e.code(), tonic::Code::NotFound);

        // An invalid bundle is refused at the coordinator too, and journals nothing.
        let mut bad = bundle_from_disk(&fx.sweep()).unwrap();
        bad.sweep_yaml = bad.sweep_yaml.replace("monsters: {", "villains: {");
        let mut control = t.control().await.unwrap();
        let e = control.submit(proto::SubmitRequest { bundle: Some(bad) }).await.unwrap_err();
        assert_eq!(e.code(), tonic::Code::InvalidArgument, "{e:?}");

        let me = register(&mut w, pf1e_engine::RULES_VERSION).await.unwrap();
        let first =
            w.lease(proto::LeaseRequest { worker_id: me.clone(), max_shards: 1 }).await.unwrap().into_inner();
        assert_eq!(first.leases.len(), 1);
        let first_reports = play(&mut w, &first).await;
        let r = w
            .report(proto::ReportRequest { worker_id: me.clone(), reports: first_reports.clone() })
            .await
            .unwrap();
        assert_eq!((r.get_ref().accepted, r.get_ref().ignored), (1, 0));
        // The same report again: acknowledged, ignored.
        let r = w
            .report(proto::ReportRequest { worker_id: me.clone(), reports: first_reports.clone() })
            .await
            .unwrap();
        assert_eq!((r.get_ref().accepted, r.get_ref().ignored), (0, 1));

        let rest = w
            .lease(proto::LeaseRequest { worker_id: me.clone(), max_shards: 64 })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(rest.leases.len(), 3);
        let reports = play(&mut w, &rest).await;
        let r =
            w.report(proto::ReportRequest { worker_id: me.clone(), reports: reports.clone() }).await.unwrap();
        assert_eq!(r.get_ref().accepted, 3);
        let done =
            control.get(proto::GetRequest { sweep_id: id.parse().unwrap() }).await.unwrap().into_inner();
        assert_eq!(done.status, proto::SweepStatus::Done as i32);

        // Late reports for a finished sweep: acknowledged, ignored, nothing changes.
        let mut late = reports;
        late.extend(first_reports);
        let r = w.report(proto::ReportRequest { worker_id: me.clone(), reports: late }).await.unwrap();
        assert_eq!((r.get_ref().accepted, r.get_ref().ignored), (0, 4));
        let after =
            control.get(proto::GetRequest { sweep_id: id.parse().unwrap() }).await.unwrap().into_inner();
        assert_eq!(after, done);
        let list = control.list(proto::ListRequest {}).await.unwrap().into_inner();
        assert_eq!(list.sweeps.len(), 1, "the invalid bundle was journaled");
    });
    let doc = json_of(&ctl(&c.url, &["results", &id, "--json"]));
    assert_eq!(doc["results"], reference);

    // The metrics endpoint shows the same figures.
    let metrics = c.metrics.as_deref().unwrap();
    let mut sock = std::net::TcpStream::connect(metrics).unwrap();
    use std::io::{Read, Write};
    sock.write_all(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").unwrap();
    let mut text = String::new();
    sock.read_to_string(&mut text).unwrap();
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.contains("\npf1e_shards_done_total 4\n"), "{text}");
    assert!(text.contains("\npf1e_shards_queued 0\n"), "{text}");
    assert!(text.contains("\npf1e_shards_pending 0\n"), "{text}");
    assert!(text.contains("\npf1e_workers 1\n"), "{text}");
}

#[test]
fn forged_reports_are_refused_and_never_reach_the_cache() {
    let fx = Fixture::new("grpc-forged", 2, 2);
    let reference = fx.embedded_results();
    let c = start_coordinator(&fx.path("c.redb"), "127.0.0.1:0", &["--metrics-listen", "127.0.0.1:0"], &[]);
    let out = ctl(&c.url, &["submit", fx.sweep().to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let id = String::from_utf8_lossy(&out.stdout).trim().lines().last().unwrap().to_string();

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let t = target(&c.url);
        let mut w = t.worker().await.unwrap();
        let honest = register(&mut w, pf1e_engine::RULES_VERSION).await.unwrap();
        let thief = register(&mut w, pf1e_engine::RULES_VERSION).await.unwrap();
        let leased = w
            .lease(proto::LeaseRequest { worker_id: honest.clone(), max_shards: 1 })
            .await
            .unwrap()
            .into_inner();
        let genuine = play(&mut w, &leased).await;

        // Another worker reports the shard it never leased, with a win rate of 1.
        let mut forged = genuine.clone();
        edit(&mut forged[0], |result| {
            let summary = result.summary.as_mut().unwrap();
            let runs = summary.runs;
            summary.wins = vec![0; summary.wins.len()];
            summary.wins[1] = runs;
            summary.draws = 0;
            // A grid's shard reports totals (no per-run winner to forge): its sums are the claim.
            if !result.winner.is_empty() {
                result.winner = vec![1; runs as usize];
            }
        });
        let r = w
            .report(proto::ReportRequest { worker_id: thief.clone(), reports: forged.clone() })
            .await
            .unwrap();
        assert_eq!((r.get_ref().accepted, r.get_ref().ignored), (0, 1), "not the lease holder");

        // The holder itself sends sums that are not those of its runs (a grid's
        // shard reports totals: its wins and draws must still add up to its runs).
        let mut lying = genuine.clone();
        edit(&mut lying[0], |result| {
            assert!(result.totals.is_some(), "a grid's shard reports totals");
            result.summary.as_mut().unwrap().wins[0] += 1;
        });
        let r = w.report(proto::ReportRequest { worker_id: honest.clone(), reports: lying }).await.unwrap();
        assert_eq!((r.get_ref().accepted, r.get_ref().ignored), (0, 1), "tables that do not check out");

        // A failure report from a worker that holds nothing fails nothing.
        let mut failure = genuine.clone();
        failure[0].result.clear();
        failure[0].error = "x".repeat(1 << 20);
        let r = w.report(proto::ReportRequest { worker_id: thief.clone(), reports: failure }).await.unwrap();
        assert_eq!(r.get_ref().ignored, 1);

        // The shard went back to the queue: lease and play everything honestly.
        loop {
            let l = w
                .lease(proto::LeaseRequest { worker_id: honest.clone(), max_shards: 64 })
                .await
                .unwrap()
                .into_inner();
            if l.leases.is_empty() {
                break;
            }
            let reports = play(&mut w, &l).await;
            w.report(proto::ReportRequest { worker_id: honest.clone(), reports }).await.unwrap();
        }
    });
    let doc = json_of(&ctl(&c.url, &["results", &id, "--json"]));
    assert_eq!(doc["results"], reference, "the forged numbers reached no result");
    let metrics = c.metrics.as_deref().unwrap();
    let mut sock = std::net::TcpStream::connect(metrics).unwrap();
    use std::io::{Read, Write};
    sock.write_all(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").unwrap();
    let mut text = String::new();
    sock.read_to_string(&mut text).unwrap();
    assert!(text.contains("\npf1e_reports_refused_total 3\n"), "{text}");
}

/// `GET /metrics` of a coordinator's metrics listener.
fn metrics_text(addr: &str) -> String {
    use std::io::{Read, Write};
    let mut sock = std::net::TcpStream::connect(addr).unwrap();
    sock.write_all(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").unwrap();
    let mut text = String::new();
    sock.read_to_string(&mut text).unwrap();
    text
}

#[test]
fn an_audit_catches_a_lying_worker_quarantines_it_and_keeps_the_true_results() {
    let fx = Fixture::new("grpc-audit", 8, 2);
    let reference = fx.embedded_results();
    let c = start_coordinator(
        &fx.path("c.redb"),
        "127.0.0.1:0",
        &["--metrics-listen", "127.0.0.1:0", "--audit-fraction", "1"],
        &[],
    );
    let out = ctl(&c.url, &["submit", fx.sweep().to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let id = String::from_utf8_lossy(&out.stdout).trim().lines().last().unwrap().to_string();

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let liar = rt.block_on(async {
        let mut w = target(&c.url).worker().await.unwrap();
        let liar = register_named(&mut w, "liar", pf1e_engine::RULES_VERSION).await.unwrap();
        let leased = w
            .lease(proto::LeaseRequest { worker_id: liar.clone(), max_shards: 2 })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(leased.leases.len(), 2);
        // Every battle's winner swapped, with sums to match: tables that check out.
        let mut lies = play(&mut w, &leased).await;
        for r in &mut lies {
            edit(r, |result| {
                for x in &mut result.winner {
                    if *x >= 0 {
                        *x = 1 - *x;
                    }
                }
                result.summary.as_mut().unwrap().wins.swap(0, 1);
            });
        }
        let r = w.report(proto::ReportRequest { worker_id: liar.clone(), reports: lies }).await.unwrap();
        assert_eq!(r.get_ref().accepted, 2, "held for the audit, not refused");
        liar
    });
    // An honest worker (the real binary) replays the liar's shards and plays the rest.
    let _honest = start_worker(&c.url, &["--threads", "1"], &[]);
    let out = ctl(&c.url, &["watch", &id]);
    assert!(out.status.success(), "watch: {}", String::from_utf8_lossy(&out.stderr));
    let doc = json_of(&ctl(&c.url, &["results", &id, "--json"]));
    assert_eq!(doc["results"], reference, "no lie reached a result");

    rt.block_on(async {
        let mut w = target(&c.url).worker().await.unwrap();
        let e = w.lease(proto::LeaseRequest { worker_id: liar, max_shards: 1 }).await.unwrap_err();
        assert_eq!(e.code(), tonic::Code::NotFound, "the liar lost its registration: {e:?}");
        let e = register_named(&mut w, "liar", pf1e_engine::RULES_VERSION).await.unwrap_err();
        assert_eq!(e.code(), tonic::Code::PermissionDenied, "{e:?}");
        assert!(e.message().contains("quarantined"), "{e:?}");
    });
    let text = metrics_text(c.metrics.as_deref().unwrap());
    assert!(text.contains("\npf1e_workers_quarantined_total 1\n"), "{text}");
    // One or both of the liar's shards disputed (once it is quarantined its
    // other held result is dropped and played again).
    assert!(
        text.contains("\npf1e_audits_disputed_total 1\n")
            || text.contains("\npf1e_audits_disputed_total 2\n"),
        "{text}"
    );
}
