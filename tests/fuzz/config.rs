//! Target `config`: `Settings::load_from` of TOML-ish files (real keys with odd values, unknown keys and
//! sections, broken syntax, arbitrary text) and `MANCALA__*` environment sets: the settings, or an error of one
//! line; never a panic.

use crate::{config as proptest_config, corpus, corpus_dir};
use mancala::config::{Settings, DEFAULTS};
use proptest::prelude::*;
use std::path::Path;

/// Every `[section] key` of the defaults.
fn keys() -> Vec<(String, String)> {
    let mut section = String::new();
    let mut out = Vec::new();
    for line in DEFAULTS.lines().map(str::trim) {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.to_string();
        } else if let Some((key, _)) = line.split_once('=') {
            out.push((section.clone(), key.trim().to_string()));
        }
    }
    out
}

/// A TOML value: the shapes the settings expect, edge numbers, and wrong types.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "0",
            "1",
            "-1",
            "64",
            "18446744073709551615",
            "18446744073709551616",
            "9223372036854775807",
            "-9223372036854775808",
            "1e400",
            "nan",
            "inf",
            "0.5",
            "true",
            "false",
            "\"\"",
            "\"127.0.0.1:0\"",
            "\"[::1]:50051\"",
            "\"0.0.0.0:99999\"",
            "\"json\"",
            "\"plain\"",
            "\"memory\"",
            "\"embedded\"",
            "\"redis\"",
            "\"info,mancala=debug\"",
            "\"[\"",
            "\"redis://\"",
            "\"rediss://u:p@h:1/2\"",
            "[]",
            "[1, 2]",
            "{}",
            "{ a = 1 }",
            "1979-05-27T07:32:00Z",
            "0x10",
            "1_000",
            "'x'",
            "\"\"\"\nmulti\n\"\"\"",
            "\"\\u0000\"",
            "\"\\uD800\"",
        ])
        .prop_map(str::to_string),
        any::<i64>().prop_map(|v| v.to_string()),
        "\"\\PC{0,12}\"",
        "\\PC{0,10}",
    ]
}

/// One line of a config file.
fn line() -> impl Strategy<Value = String> {
    let keys = keys();
    let sections: Vec<String> = {
        let mut s: Vec<String> = keys.iter().map(|(s, _)| s.clone()).collect();
        s.dedup();
        s
    };
    prop_oneof![
        4 => (prop::sample::select(keys), value()).prop_map(|((_, key), v)| format!("{key} = {v}")),
        2 => prop::sample::select(sections).prop_map(|s| format!("[{s}]")),
        1 => ("[a-z_.]{1,12}", value()).prop_map(|(k, v)| format!("{k} = {v}")),
        1 => "\\[\\[?[a-z_.\"]{0,12}\\]?\\]?",
        1 => "\\PC{0,30}",
        1 => Just(String::new()),
    ]
}

/// A `MANCALA__*` variable (or another one, which is ignored).
fn env_var() -> impl Strategy<Value = (String, String)> {
    let named = prop::sample::select(keys()).prop_map(|(section, key)| {
        format!(
            "MANCALA__{}__{}",
            section.to_uppercase(),
            key.to_uppercase()
        )
    });
    let value = prop_oneof![value(), "[0-9]{1,22}", "\\PC{0,16}", Just(String::new())];
    (
        prop_oneof![
            6 => named,
            1 => "MANCALA__[A-Z_]{0,20}",
            1 => "MANCALA_[A-Z_]{0,12}",
            1 => "[A-Z_]{1,10}",
        ],
        value,
    )
}

/// Loads `text` as the config file with `env`: the settings or a one-line error.
pub fn check(path: &Path, text: &str, env: &[(String, String)]) -> Result<(), TestCaseError> {
    std::fs::write(path, text).expect("the temporary file is writable");
    if let Err(error) = Settings::load_from(Some(path), env.iter().cloned()) {
        let message = error.to_string();
        prop_assert!(!message.is_empty(), "an empty error");
        prop_assert!(
            !message.contains(['\n', '\r']),
            "an error of more than one line: {:?}",
            message
        );
    }
    Ok(())
}

/// The seed corpus: the shipped example, the defaults, and a few broken files.
pub fn seeds() -> Vec<(String, Vec<u8>)> {
    let example =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/mancala.example.toml"))
            .expect("the example config");
    vec![
        ("example.toml".into(), example),
        ("defaults.toml".into(), DEFAULTS.as_bytes().to_vec()),
        (
            "unclosed-section.toml".into(),
            b"[server\nlisten = 1\n".to_vec(),
        ),
        (
            "wrong-types.toml".into(),
            b"[server]\nmax_message_bytes = \"big\"\n[engine]\ninline_laps = -1\n".to_vec(),
        ),
        (
            "unknown-key.toml".into(),
            b"[matches]\nstorage = \"memory\"\n".to_vec(),
        ),
    ]
}

/// Environment variables of a corpus file: a sibling `NAME.env` of `KEY=VALUE` lines.
fn corpus_env(name: &str) -> Vec<(String, String)> {
    let path = corpus_dir("config").join(name).with_extension("env");
    std::fs::read_to_string(path)
        .map(|text| {
            text.lines()
                .filter_map(|l| l.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn config_corpus_replays() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("mancala.toml");
    for (name, bytes) in corpus("config") {
        if name.ends_with(".env") {
            continue;
        }
        let text = String::from_utf8_lossy(&bytes);
        check(&path, &text, &corpus_env(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

thread_local! {
    /// One directory per test thread for the config file each case writes.
    static DIR: tempfile::TempDir = tempfile::tempdir().expect("a temporary directory");
}

fn file() -> std::path::PathBuf {
    DIR.with(|dir| dir.path().join("mancala.toml"))
}

proptest! {
    #![proptest_config(proptest_config(600))]

    #[test]
    fn config_files_and_env(lines in prop::collection::vec(line(), 0..12),
                            env in prop::collection::vec(env_var(), 0..4)) {
        check(&file(), &lines.join("\n"), &env)?;
    }

    #[test]
    fn config_arbitrary_text(text in "\\PC{0,300}") {
        check(&file(), &text, &[])?;
    }
}
