//! Where two JSON values differ, named by path: `moves[2]{S3}.result.pits[5]: recorded 4, answered 0`. A list
//! element that carries a `label` (a legal move) is named by it too, so a report reads like the board.

use serde_json::Value;

/// At most this many differences are named per compared answer: one wrong rule can change every preview of a
/// list, and the first few say what the rest would.
const MAX_PER_ANSWER: usize = 12;

/// Every difference between the `recorded` value and the `answered` one under `root`, at most
/// [`MAX_PER_ANSWER`] of them and then how many more there were.
pub fn differences(root: &str, recorded: &Value, answered: &Value) -> Vec<String> {
    let mut found = Vec::new();
    walk(root, recorded, answered, &mut found);
    if found.len() > MAX_PER_ANSWER {
        let more = found.len() - MAX_PER_ANSWER;
        found.truncate(MAX_PER_ANSWER);
        found.push(format!("… and {more} more differences under {root}"));
    }
    found
}

fn walk(path: &str, recorded: &Value, answered: &Value, found: &mut Vec<String>) {
    match (recorded, answered) {
        (Value::Object(r), Value::Object(a)) => {
            // proto3 JSON leaves default values out: a field on one side only differs from its default.
            let mut keys: Vec<&String> = r.keys().chain(a.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let child = format!("{path}.{key}");
                match (r.get(key), a.get(key)) {
                    (Some(rv), Some(av)) => walk(&child, rv, av, found),
                    (Some(rv), None) => found.push(format!(
                        "{child}: recorded {rv}, answered nothing (the default)"
                    )),
                    (None, Some(av)) => found.push(format!(
                        "{child}: recorded nothing (the default), answered {av}"
                    )),
                    (None, None) => {}
                }
            }
        }
        (Value::Array(r), Value::Array(a)) => {
            if r.len() != a.len() {
                found.push(format!(
                    "{path}: recorded {} entries, answered {}",
                    r.len(),
                    a.len()
                ));
            }
            for (i, (rv, av)) in r.iter().zip(a).enumerate() {
                let child = match rv.get("label").and_then(Value::as_str) {
                    Some(label) => format!("{path}[{i}]{{{label}}}"),
                    None => format!("{path}[{i}]"),
                };
                walk(&child, rv, av, found);
            }
        }
        _ if recorded == answered => {}
        _ => found.push(format!("{path}: recorded {recorded}, answered {answered}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equal_values_have_no_difference() {
        let v = json!({"moves": [{"label": "S1", "result": {"pits": [1, 2]}}]});
        assert!(differences("x", &v, &v.clone()).is_empty());
    }

    #[test]
    fn a_difference_is_named_by_its_path_and_the_move_label() {
        let recorded = json!([{"label": "S3", "result": {"pits": [4, 0]}}]);
        let answered = json!([{"label": "S3", "result": {"pits": [4, 1]}}]);
        assert_eq!(
            differences("moves", &recorded, &answered),
            vec!["moves[0]{S3}.result.pits[1]: recorded 0, answered 1".to_string()]
        );
    }

    #[test]
    fn a_field_left_out_on_one_side_is_a_difference() {
        let recorded = json!({"capture": {"seeds": 3}});
        let answered = json!({"capture": {}});
        assert_eq!(
            differences("e", &recorded, &answered),
            vec!["e.capture.seeds: recorded 3, answered nothing (the default)".to_string()]
        );
    }

    #[test]
    fn lists_of_different_lengths_are_reported_and_compared_as_far_as_both_go() {
        let recorded = json!([1, 2, 3]);
        let answered = json!([1, 5]);
        assert_eq!(
            differences("l", &recorded, &answered),
            vec![
                "l: recorded 3 entries, answered 2".to_string(),
                "l[1]: recorded 2, answered 5".to_string()
            ]
        );
    }

    #[test]
    fn many_differences_are_cut_short_with_a_count() {
        let recorded = json!((0..20).collect::<Vec<_>>());
        let answered = json!((100..120).collect::<Vec<_>>());
        let found = differences("l", &recorded, &answered);
        assert_eq!(found.len(), MAX_PER_ANSWER + 1);
        assert_eq!(found.last().unwrap(), "… and 8 more differences under l");
    }
}
