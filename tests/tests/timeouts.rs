//! Idle connections cannot starve the coordinator: 1,100 TCP connections
//! that send nothing, against a process limited to 1,024 descriptors, and
//! `ctl health` still answers; the silent connections are closed.

use std::io::Read;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use pf1e_e2e::{Fixture, ctl, start_coordinator_limited};

#[test]
fn eleven_hundred_idle_connections_do_not_starve_ctl_health() {
    let fx = Fixture::new("idle", 4, 2);
    let c = start_coordinator_limited(&fx.path("c.redb"), 1024, &[]);
    let http = c.http.clone().expect("an HTTP port");
    let mut idle = Vec::new();
    let opened = Instant::now();
    for _ in 0..1100 {
        // Connections past the limit are accepted and closed at once: all connect.
        idle.push(TcpStream::connect(&http).expect("connect"));
    }
    // 400 more on the gRPC port itself, under its own limit.
    for _ in 0..400 {
        idle.push(TcpStream::connect(&c.addr).expect("connect"));
    }
    let asked = Instant::now();
    let out = ctl(&c.url, &["health"]);
    let took = asked.elapsed();
    assert!(out.status.success(), "ctl health failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(opened.elapsed() < Duration::from_secs(10), "the check ran while the connections were held");
    eprintln!("ctl health answered in {took:?} beside 1,500 idle connections");
    // The silent ones are closed by the coordinator (first-byte wait: 10 s).
    let mut first = idle.swap_remove(0);
    first.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut buf = [0u8; 1];
    let n = first.read(&mut buf).unwrap_or(0);
    assert_eq!(n, 0, "a silent connection was closed");
}
