//! What the test modules share.

/// Asserts a snapshot kept as `tests/snapshots/{module}__{name}.snap` (with `@{file}` added
/// inside `insta::glob!`), `module` being the test module's name. These are the names the
/// snapshots had when every module was its own test binary; insta would otherwise prefix
/// them with `suite__` and look for them in `tests/suite/snapshots/`.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {{
        let module = module_path!().rsplit("::").next().unwrap_or_default();
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path("../snapshots");
        settings.set_prepend_module_to_snapshot(false);
        settings.bind(|| {
            insta::assert_snapshot!(format!("{module}__{}", $name), $value);
        });
    }};
}
