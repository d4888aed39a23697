//! Hostile bodies to the API: any JSON, or any bytes, to every POST route (a property test).

use super::*;
use proptest::prelude::*;

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        ".{0,40}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::from),
            prop::collection::btree_map(
                prop_oneof![
                    Just("name".to_string()),
                    Just("password".to_string()),
                    Just("source".to_string()),
                    Just("hill".to_string()),
                    Just("seeds".to_string()),
                    Just("size".to_string()),
                    ".{0,8}".prop_map(|s| s)
                ],
                inner,
                0..6
            )
            .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    /// Any JSON, or any bytes, to every POST route of the API: an answer in the API's
    /// JSON, never a server error.
    #[test]
    fn any_body_to_the_api_is_answered_in_json(value in json_value(), bytes in prop::collection::vec(any::<u8>(), 0..200), raw in any::<bool>()) {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        rt.block_on(async {
            let w = world_once().await;
            for (route, _) in table().iter().filter(|(r, _)| r.face == Face::Api && r.method == Method::POST) {
                for role in [Role::Anonymous, Role::Admin] {
                    let mut req = request(&w, route, role);
                    *req.body_mut() = if raw { Body::from(bytes.clone()) } else { Body::from(value.to_string()) };
                    let (status, _, body) = send(&w.router, req).await;
                    prop_assert!(!status.is_server_error(), "{} {}: {status} {body}", route.method, route.path);
                    let v: serde_json::Value = serde_json::from_str(&body).map_err(|e| TestCaseError::fail(format!("{e}: {body}")))?;
                    prop_assert!(v.is_object() || v.is_array());
                }
            }
            Ok(())
        })?;
    }
}

async fn world_once() -> World {
    super::world().await
}
