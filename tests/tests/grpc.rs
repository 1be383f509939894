//! The worker protocol at the gRPC level: duplicate and late reports, a
//! worker with other rules, an invalid bundle and the metrics endpoint
//! change nothing they should not.

use std::collections::BTreeMap;
use std::sync::Arc;

use pf1e_coordinator::sweep::bundle_from_disk;
use pf1e_e2e::{Fixture, ctl, json_of, start_coordinator};
use pf1e_wire::auth::ClientAuth;
use pf1e_wire::client::{Target, Worker};
use pf1e_wire::evaluate::evaluate_leases;
use pf1e_wire::proto;
use pf1e_wire::scenario::Scenario;
use pf1e_wire::shard::Lease;
use pf1e_worker::EngineEvaluator;

fn target(url: &str) -> Target {
    Target { url: url.to_string(), auth: ClientAuth::new(None).unwrap(), tls_ca: None }
}

async fn register(w: &mut Worker, rules: &str) -> Result<String, tonic::Status> {
    let req = proto::RegisterRequest {
        name: "test".into(),
        threads: 1,
        rules_version: rules.into(),
        protocol_version: pf1e_wire::PROTOCOL_VERSION,
    };
    w.register(req).await.map(|r| r.into_inner().worker_id)
}

async fn play(w: &mut Worker, leases: &[proto::Lease]) -> Vec<proto::ShardReport> {
    let mut scenarios = BTreeMap::new();
    let leases: Vec<Lease> = leases.iter().map(|l| Lease::try_from(l).expect("a readable lease")).collect();
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
        let first_reports = play(&mut w, &first.leases).await;
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
        let reports = play(&mut w, &rest.leases).await;
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
    sock.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut text = String::new();
    sock.read_to_string(&mut text).unwrap();
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.contains("\npf1e_shards_done_total 4\n"), "{text}");
    assert!(text.contains("\npf1e_shards_queued 0\n"), "{text}");
    assert!(text.contains("\npf1e_workers 1\n"), "{text}");
}
