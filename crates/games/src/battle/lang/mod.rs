//! The robot program language: grammar (`grammar/robot.pest`), typed AST and parser.

pub mod ast;
pub mod editor;
pub mod holds;
pub mod lint;
pub mod parser;

pub use ast::*;
pub use parser::{
    DEFAULT_PROGRAM_STEPS, MAX_NESTING, MAX_PROGRAM_STEPS, parse_condition, parse_condition_in,
    parse_program, parse_program_in,
};
