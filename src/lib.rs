//! # referee
//!
//! Grades game-search homework and referees game-playing agents.
//!
//! Data flows one way: [`game`] (rules behind the `Game` trait) -> [`search`] (minimax, alpha-beta, observers) ->
//! [`reference`] (the course programs, exact to the byte) -> [`harness`] (suites, comparison). [`cli`] holds the
//! clap definitions of the `referee` and `takestones` binaries and [`app`] what each command does.

pub mod app;
pub mod cli;
pub mod diagnose;
pub mod exercise;
pub mod game;
pub mod harness;
pub mod keys;
pub mod referee;
pub mod reference;
pub mod rng;
pub mod search;
pub mod similar;
pub mod visible;
