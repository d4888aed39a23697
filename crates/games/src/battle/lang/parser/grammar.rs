//! The pest parser generated from `grammar/robot.pest`, and its `Rule`s.

#[derive(pest_derive::Parser)]
#[grammar = "../../../grammar/robot.pest"]
pub(super) struct RobotParser;
