//! Compiles proto/pf1e.proto with the pure-Rust `protox` compiler: no system `protoc` needed.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let proto_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../proto");
    let proto = proto_dir.join("pf1e.proto");
    println!("cargo:rerun-if-changed={}", proto.display());
    let fds = protox::compile([&proto], [&proto_dir])?;
    // Maps decode into BTreeMap: iteration order is part of determinism.
    tonic_prost_build::configure().btree_map(".").compile_fds(fds)?;
    Ok(())
}
