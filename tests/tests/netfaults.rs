//! The network between the coordinator and its workers, faulted: each
//! process on its own host (a Linux network namespace with its own address
//! and a veth link), and between each worker and the coordinator a
//! fault-injecting TCP proxy (latency, connections cut mid-stream, answers
//! lost after the request went through, streams held up past the lease
//! time) or a link taken down and brought back (a partition that heals).
//! Whatever the faults, the sweep's results are bit-identical to the
//! embedded mode's, and the shards computed twice are bounded by what was
//! in flight when a fault hit.
//!
//! Namespaces need root and `ip` (iproute2): without them the tests skip
//! with one line, unless `CI=true` (set by `.ci/run`, which runs as root),
//! where they fail instead. The addresses are in 198.18.0.0/15, the range
//! reserved for network test equipment (RFC 2544), on links that exist only
//! between the test's namespaces and this process; every namespace and link
//! is removed when its test ends (and stale ones of a killed run are
//! removed at the next start).

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use pf1e_e2e::{
    Fixture, Proc, ctl, json_of, pf1e_in_netns, start_coordinator_in, start_worker_in, status, wait_for,
};

/// The variable that makes missing namespaces a failure (CI sets it to `true`).
const CI: &str = "CI";

/// Runs `ip ARGS`; whether it succeeded.
fn ip(args: &[&str]) -> bool {
    Command::new("ip")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// `ip ARGS`, which must succeed.
fn must_ip(args: &[&str]) {
    assert!(ip(args), "`ip {}` failed", args.join(" "));
}

/// Whether this process may create network namespaces; if not, skips (one
/// line) or, under `CI=true`, fails.
#[allow(clippy::print_stderr)] // the one-line skip notice is the point
fn namespaces_permitted(test: &str) -> bool {
    let k = NEXT_SUBNET.fetch_add(1, Ordering::SeqCst);
    let probe = format!("pf1e-nf-probe-{}-{k}", std::process::id());
    if ip(&["netns", "add", &probe]) {
        ip(&["netns", "del", &probe]);
        return true;
    }
    let why = "network namespaces need root and iproute2's `ip`";
    if std::env::var(CI).is_ok_and(|v| v == "true") {
        panic!("{test}: {why} when {CI}=true (.ci/run runs as root)");
    }
    eprintln!("SKIPPED {test}: {why} (with {CI}=true this fails)");
    false
}

/// Removes namespaces and links left by a test process that no longer runs.
fn remove_stale() {
    let Ok(out) = Command::new("ip").args(["netns", "list"]).output() else { return };
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let name = line.split_whitespace().next().unwrap_or_default();
        let Some(pid) = name.strip_prefix("pf1e-nf-").and_then(|r| r.split('-').next()) else { continue };
        if pid.parse::<u32>().is_ok_and(|p| !std::path::Path::new(&format!("/proc/{p}")).exists()) {
            ip(&["netns", "del", name]);
        }
    }
}

/// Subnets handed out in this process (tests run in parallel threads).
static NEXT_SUBNET: AtomicUsize = AtomicUsize::new(0);

/// A host: a network namespace linked to this process's namespace by a veth
/// pair, `gateway` on this side and `addr` on the host's.
struct Host {
    netns: String,
    link: String,
    gateway: String,
    addr: String,
}

impl Host {
    fn new(role: &str) -> Self {
        let pid = std::process::id();
        let k = NEXT_SUBNET.fetch_add(1, Ordering::SeqCst);
        let netns = format!("pf1e-nf-{pid}-{role}{k}");
        // Interface names: at most 15 bytes, unique per process and host.
        let link = format!("nf{}h{k}", pid % 100_000);
        // 198.18.0.0/15: one /24 per host, from the pid and the counter.
        let (third, second) = (k % 256, 18 + (pid as usize / 256 + k / 256) % 2);
        let base = format!("198.{second}.{third}");
        let (gateway, addr) = (format!("{base}.1"), format!("{base}.2"));
        must_ip(&["netns", "add", &netns]);
        let host = Host { netns, link, gateway, addr };
        must_ip(&["link", "add", &host.link, "type", "veth", "peer", "name", "eth0", "netns", &host.netns]);
        must_ip(&["addr", "add", &format!("{}/24", host.gateway), "dev", &host.link]);
        must_ip(&["link", "set", &host.link, "up"]);
        must_ip(&["-n", &host.netns, "addr", "add", &format!("{}/24", host.addr), "dev", "eth0"]);
        must_ip(&["-n", &host.netns, "link", "set", "eth0", "up"]);
        must_ip(&["-n", &host.netns, "link", "set", "lo", "up"]);
        host
    }

    /// Cuts the host off (its link down: packets vanish, nothing is reset).
    fn partition(&self) {
        must_ip(&["link", "set", &self.link, "down"]);
    }

    /// Brings the host back.
    fn heal(&self) {
        must_ip(&["link", "set", &self.link, "up"]);
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        ip(&["link", "del", &self.link]);
        ip(&["netns", "del", &self.netns]);
    }
}

/// What a proxy does to the connections through it.
#[derive(Default)]
struct Faults {
    /// Delay added to every chunk, each way.
    latency_ms: AtomicU64,
    /// Connection numbers (from 1) to fault, each with the upstream bytes
    /// after which it happens and what happens.
    plan: Mutex<Vec<(u64, u64, Fault)>>,
    /// Connections accepted so far.
    connections: AtomicU64,
    /// Faults that happened, by kind: [cut, answer lost, held up].
    happened: [AtomicU64; 3],
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Fault {
    /// The connection is closed both ways at once.
    Cut,
    /// The request goes through; its answer never comes back, then the
    /// connection closes (the worker resends what it reported).
    LoseAnswer,
    /// Nothing passes either way for this long, then everything does (the
    /// lease expires meanwhile; the report arrives late).
    HoldUp(Duration),
}

impl Fault {
    fn index(self) -> usize {
        match self {
            Fault::Cut => 0,
            Fault::LoseAnswer => 1,
            Fault::HoldUp(_) => 2,
        }
    }
}

/// A TCP proxy on `listen` to `target`, faulting connections by `faults`.
struct Proxy {
    addr: SocketAddr,
    faults: Arc<Faults>,
    stop: Arc<AtomicBool>,
}

impl Proxy {
    fn start(listen: &str, target: SocketAddr, faults: Faults) -> Self {
        let listener = TcpListener::bind((listen, 0)).expect("bind the proxy");
        let addr = listener.local_addr().expect("proxy address");
        listener.set_nonblocking(true).expect("nonblocking accept");
        let faults = Arc::new(faults);
        let stop = Arc::new(AtomicBool::new(false));
        let (f, s) = (Arc::clone(&faults), Arc::clone(&stop));
        thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((client, _)) => {
                        let _ = client.set_nonblocking(false);
                        let n = f.connections.fetch_add(1, Ordering::SeqCst) + 1;
                        let fault =
                            f.plan.lock().expect("plan").iter().find(|p| p.0 == n).map(|p| (p.1, p.2));
                        if let Ok(upstream) = TcpStream::connect(target) {
                            relay(client, upstream, Arc::clone(&f), fault, Arc::clone(&s));
                        }
                    }
                    Err(_) => thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Proxy { addr, faults, stop }
    }

    fn happened(&self, f: Fault) -> u64 {
        self.faults.happened[f.index()].load(Ordering::SeqCst)
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// Relays both ways between `client` and `upstream` until either closes,
/// injecting `fault` (after so many upstream bytes) on the way.
fn relay(
    client: TcpStream,
    upstream: TcpStream,
    faults: Arc<Faults>,
    fault: Option<(u64, Fault)>,
    stop: Arc<AtomicBool>,
) {
    let _ = client.set_nodelay(true);
    let _ = upstream.set_nodelay(true);
    // Set once the fault struck: the answer direction goes mute.
    let mute = Arc::new(AtomicBool::new(false));
    let (c2, u2) = (client.try_clone().expect("clone"), upstream.try_clone().expect("clone"));
    {
        let (faults, mute, stop) = (Arc::clone(&faults), Arc::clone(&mute), Arc::clone(&stop));
        let (mut from, mut to) = (client, upstream);
        thread::spawn(move || {
            let mut sent = 0u64;
            let mut pending = fault;
            let mut buf = [0u8; 16 * 1024];
            loop {
                let n = match from.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                delay(&faults);
                if to.write_all(&buf[..n]).is_err() {
                    break;
                }
                sent += n as u64;
                if let Some((after, f)) = pending
                    && sent >= after
                {
                    pending = None;
                    faults.happened[f.index()].fetch_add(1, Ordering::SeqCst);
                    match f {
                        Fault::Cut => break,
                        Fault::LoseAnswer => {
                            mute.store(true, Ordering::SeqCst);
                            thread::sleep(Duration::from_millis(300));
                            break;
                        }
                        Fault::HoldUp(d) => thread::sleep(d),
                    }
                }
            }
            let _ = from.shutdown(Shutdown::Both);
            let _ = to.shutdown(Shutdown::Both);
        });
    }
    let (mut from, mut to) = (u2, c2);
    thread::spawn(move || {
        let mut buf = [0u8; 16 * 1024];
        loop {
            let n = match from.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            if mute.load(Ordering::SeqCst) || stop.load(Ordering::SeqCst) {
                break;
            }
            delay(&faults);
            if to.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        let _ = from.shutdown(Shutdown::Both);
        let _ = to.shutdown(Shutdown::Both);
    });
}

fn delay(faults: &Faults) {
    let ms = faults.latency_ms.load(Ordering::SeqCst);
    if ms > 0 {
        thread::sleep(Duration::from_millis(ms));
    }
}

/// A coordinator on its own host.
struct CoordinatorHost {
    _proc: Proc,
    /// Its gRPC URL, reached from this process directly.
    url: String,
    grpc: SocketAddr,
    http: String,
    _host: Host,
}

fn start_coordinator(fx: &Fixture, extra: &[&str]) -> CoordinatorHost {
    let host = Host::new("c");
    let listen = format!("{}:0", host.addr);
    let http_listen = format!("{}:0", host.addr);
    let mut args = vec!["--http-listen", &http_listen];
    args.extend_from_slice(extra);
    let c = start_coordinator_in(pf1e_in_netns(&host.netns), &fx.path("c.redb"), &listen, &args, &[]);
    let grpc: SocketAddr = c.addr.parse().expect("a socket address");
    let http = c.http.clone().expect("an HTTP address");
    CoordinatorHost { _proc: c.proc, url: c.url, grpc, http, _host: host }
}

/// A worker on its own host, reaching the coordinator through `proxy`.
fn start_worker(host: &Host, proxy: &Proxy, name: &str, extra: &[&str]) -> Proc {
    let url = format!("http://{}", proxy.addr);
    let mut args = vec!["--threads", "1", "--name", name];
    args.extend_from_slice(extra);
    start_worker_in(pf1e_in_netns(&host.netns), &url, &args, &[])
}

fn submit(url: &str, sweep: &std::path::Path) -> String {
    let out = ctl(url, &["submit", sweep.to_str().expect("utf-8 path"), "-q"]);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "submit failed: {stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    stdout.lines().last().expect("an id line").trim().to_string()
}

fn stat(doc: &serde_json::Value, name: &str) -> u64 {
    doc["stats"][name].as_u64().unwrap_or_else(|| panic!("no stats.{name} in {doc}"))
}

/// A counter of the coordinator's `/metrics`.
fn metric(http: &str, name: &str) -> u64 {
    let mut s = TcpStream::connect(http).expect("connect to /metrics");
    s.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    write!(s, "GET /metrics HTTP/1.1\r\nHost: {http}\r\nConnection: close\r\n\r\n").expect("request");
    let mut body = String::new();
    let _ = s.read_to_string(&mut body);
    body.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|v| v.trim().parse().ok()))
        .unwrap_or_else(|| panic!("no {name} in /metrics: {body}"))
}

/// Shards computed more than once: reports that came for a shard already
/// delivered or leased again to another worker.
fn computed_twice(c: &CoordinatorHost) -> u64 {
    metric(&c.http, "pf1e_reports_superseded_total") + metric(&c.http, "pf1e_reports_refused_total")
}

#[test]
fn latency_cut_connections_lost_answers_and_late_reports_change_no_result() {
    let test = "latency_cut_connections_lost_answers_and_late_reports_change_no_result";
    if !namespaces_permitted(test) {
        return;
    }
    remove_stale();
    let fx = Fixture::new("netfaults", 80, 1);
    let reference = fx.embedded_results();
    let c = start_coordinator(&fx, &["--lease-ttl-ms", "1000"]);
    let max_batch = 2u64;
    let batch = max_batch.to_string();

    // Worker 1: connections cut mid-stream, then answers lost after the
    // request went through (its reports are sent again).
    let h1 = Host::new("w");
    let p1 = Proxy::start(
        &h1.gateway,
        c.grpc,
        Faults {
            latency_ms: AtomicU64::new(3),
            plan: Mutex::new(vec![
                (1, 3_000, Fault::Cut),
                (2, 6_000, Fault::LoseAnswer),
                (3, 2_000, Fault::Cut),
                (4, 5_000, Fault::LoseAnswer),
            ]),
            ..Faults::default()
        },
    );
    // Worker 2: slower, and one connection held up past the lease time (its
    // leases expire and go to worker 1; its reports arrive late).
    let h2 = Host::new("w");
    let p2 = Proxy::start(
        &h2.gateway,
        c.grpc,
        Faults {
            latency_ms: AtomicU64::new(8),
            plan: Mutex::new(vec![(1, 4_000, Fault::HoldUp(Duration::from_millis(2_500)))]),
            ..Faults::default()
        },
    );
    let _w1 = start_worker(&h1, &p1, "w1", &["--max-batch", &batch]);
    let _w2 = start_worker(&h2, &p2, "w2", &["--max-batch", &batch]);

    let id = submit(&c.url, &fx.sweep());
    let done = wait_for(&c.url, &id, "the sweep to finish", |s| s["status"] != "running");
    assert_eq!(done["status"], "done", "{done}");
    let doc = json_of(&ctl(&c.url, &["results", &id, "--json"]));
    assert_eq!(doc["results"], reference, "faulted cluster and embedded results differ");
    assert_eq!(stat(&doc, "shards_computed") + stat(&doc, "shards_from_cache"), stat(&doc, "shards_total"));

    let faults = [Fault::Cut, Fault::LoseAnswer, Fault::HoldUp(Duration::ZERO)];
    let happened: Vec<u64> = faults.iter().map(|&f| p1.happened(f) + p2.happened(f)).collect();
    assert!(happened.iter().all(|&n| n > 0), "every kind of fault struck at least once: {happened:?}");
    // A fault loses at most what its worker held: the batch it played and
    // the one it leased ahead.
    let twice = computed_twice(&c);
    let bound = happened.iter().sum::<u64>() * 2 * max_batch;
    eprintln!(
        "faults [cut, answer lost, held up] = {happened:?}; shards computed twice: {twice} (bound {bound})"
    );
    assert!(twice <= bound, "{twice} shards computed twice, more than the {bound} in flight at the faults");
}

#[test]
fn a_partition_that_heals_loses_nothing_and_the_cut_off_worker_finishes_the_sweep() {
    let test = "a_partition_that_heals_loses_nothing_and_the_cut_off_worker_finishes_the_sweep";
    if !namespaces_permitted(test) {
        return;
    }
    remove_stale();
    let fx = Fixture::new("partition", 120, 1);
    let reference = fx.embedded_results();
    let c = start_coordinator(&fx, &["--lease-ttl-ms", "1000"]);
    let max_batch = 2u64;
    let batch = max_batch.to_string();
    let direct = || Faults { latency_ms: AtomicU64::new(5), ..Faults::default() };
    let h1 = Host::new("w");
    let p1 = Proxy::start(&h1.gateway, c.grpc, direct());
    let h2 = Host::new("w");
    let p2 = Proxy::start(&h2.gateway, c.grpc, direct());
    let _w1 = start_worker(&h1, &p1, "w1", &["--max-batch", &batch]);
    let mut w2 = start_worker(&h2, &p2, "w2", &["--max-batch", &batch]);

    let id = submit(&c.url, &fx.sweep());
    let before = wait_for(&c.url, &id, "ten computed shards", |s| stat(s, "shards_computed") >= 10);
    h1.partition();
    let cut_at = stat(&before, "shards_computed");
    // Cut off for three lease times: worker 2 carries on alone meanwhile.
    let during = wait_for(&c.url, &id, "progress without worker 1", |s| {
        stat(s, "shards_computed") >= cut_at + 10 || s["status"] != "running"
    });
    thread::sleep(Duration::from_millis(3_000));
    let total = stat(&during, "shards_total");
    assert_eq!(during["status"], "running", "the sweep ended during the partition: make it longer");
    // Worker 2 goes away and the link comes back: worker 1 must finish.
    w2.kill9();
    h1.heal();
    let healed = Instant::now();
    let done = wait_for(&c.url, &id, "worker 1 to finish after the heal", |s| s["status"] != "running");
    eprintln!(
        "partition: {cut_at} of {total} shards done at the cut; finished {:?} after the heal",
        healed.elapsed()
    );
    assert_eq!(done["status"], "done", "{done}");
    let doc = json_of(&ctl(&c.url, &["results", &id, "--json"]));
    assert_eq!(doc["results"], reference, "results after a partition differ from the embedded mode's");
    let twice = computed_twice(&c);
    // The partition and worker 2's death: each loses at most what its worker held.
    let bound = 2 * 2 * max_batch;
    eprintln!("partition: shards computed twice: {twice} (bound {bound})");
    assert!(twice <= bound, "{twice} shards computed twice, more than the {bound} in flight at the faults");
    let s = status(&c.url, &id);
    assert_eq!(stat(&s, "shards_computed") + stat(&s, "shards_from_cache"), total);
}
