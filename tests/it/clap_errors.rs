//! Bad arguments get one stderr line that still says everything clap knew: the missing arguments by name, the
//! suggested subcommand, the valid values.

use assert_cmd::Command;

fn referee_stderr(args: &[&str]) -> String {
    let out = Command::cargo_bin("referee").unwrap().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn a_missing_argument_is_named() {
    assert_eq!(
        referee_stderr(&["grade"]),
        "referee: the following required arguments were not provided: --suite <SUITE> (try --help)\n"
    );
}

#[test]
fn a_misspelled_subcommand_gets_the_suggestion() {
    assert_eq!(
        referee_stderr(&["grde", "--suite", "s"]),
        "referee: unrecognized subcommand 'grde'; some similar subcommands exist: 'gradescope', 'grade' (try --help)\n"
    );
}

#[test]
fn an_invalid_value_lists_the_valid_ones() {
    assert_eq!(
        referee_stderr(&["check", "blah"]),
        "referee: invalid value 'blah' for '<GAME>'; possible values: takestones, othello (try --help)\n"
    );
}
