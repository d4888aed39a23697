# Sourced by scripts/wasm-check and scripts/wasm-build: `wasm_build CRATE_DIR TARGET_DIR
# CARGO_ARGS…` builds one package of the workspace for wasm32-unknown-unknown.
#
# With rustup and its wasm32-unknown-unknown target installed, the stable toolchain builds it
# (into TARGET_DIR/rustup). Otherwise Debian's packages do (rustc-web, cargo-web,
# rust-web-src, lld; installed when missing): Debian ships no prebuilt standard library for
# the target, so it is built from rust-web-src (-Zbuild-std, allowed on a stable compiler by
# RUSTC_BOOTSTRAP=1) and linked by wasm-ld (into TARGET_DIR/debian). Sets WASM_TARGET_DIR to
# the folder cargo wrote, the target's name included.

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

wasm_build() {
    local crate=$1 target_dir=$2
    shift 2
    mkdir -p "$target_dir"
    if command -v rustup >/dev/null &&
        rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
        echo "== wasm: rustup's wasm32-unknown-unknown target"
        (cd "$crate" && cargo build --target wasm32-unknown-unknown \
            --target-dir "$target_dir/rustup" "$@")
        WASM_TARGET_DIR="$target_dir/rustup/wasm32-unknown-unknown"
        return
    fi
    if [ ! -x /usr/bin/cargo ] || [ ! -d /usr/lib/rustlib/src/rust/library ] ||
        ! command -v wasm-ld >/dev/null; then
        echo "== wasm: installing Debian's rustc-web, cargo-web, rust-web-src and lld"
        as_root apt-get update
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y \
            rustc-web cargo-web rust-web-src lld
    fi
    echo "== wasm: Debian's $(/usr/bin/cargo --version), the standard library built from source"
    # Debian's cargo with Debian's rustc, not rustup's proxies that may come first on PATH.
    (cd "$crate" &&
        env PATH="/usr/bin:$PATH" RUSTC=/usr/bin/rustc \
            RUSTC_BOOTSTRAP=1 CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld \
            /usr/bin/cargo build --target wasm32-unknown-unknown \
            -Zbuild-std=std,panic_abort --target-dir "$target_dir/debian" "$@")
    WASM_TARGET_DIR="$target_dir/debian/wasm32-unknown-unknown"
}
