//! Compiles proto/pf1e.proto with the pure-Rust `protox` compiler: no system `protoc` needed.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Read at run time, not baked in with env!: a build script compiled in one
    // checkout and reused by another sharing the target directory must
    // compile that checkout's proto file.
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").ok_or("CARGO_MANIFEST_DIR is not set")?;
    let proto_dir = std::path::Path::new(&manifest_dir).join("../../proto");
    let proto = proto_dir.join("pf1e.proto");
    println!("cargo:rerun-if-changed={}", proto.display());
    let fds = protox::compile([&proto], [&proto_dir])?;
    // Maps decode into BTreeMap: iteration order is part of determinism.
    tonic_prost_build::configure().btree_map(".").compile_fds(fds)?;
    Ok(())
}
