//! A match file's signals (RULES A.8, R-A15): the planned signals read, the robot each
//! names, and the warnings about signals that will do nothing (R-A14) or never be sent.

use super::raw::{Ctx, Located, Places, SignalFile};
use crate::battle::engine::{
    MatchSetup, RobotName, RobotNameError, RobotRef, Rules, SignalPlan, TeamSetup,
};
use crate::battle::terrain::TeamColour;
use crate::text::diagnostic::Diagnostic;

/// Signals that will do nothing (R-A14) and conditions that can never hold.
pub(super) fn lint_signals(ctx: &Ctx, setup: &MatchSetup, places: &Places, raw: &[SignalFile]) {
    use crate::battle::lang::lint::{Context, WarningId, never_holds};
    let robots = setup.teams.iter().map(|t| t.robots.len()).sum::<usize>();
    for (i, plan) in setup.signals.iter().enumerate() {
        let r = plan.robot();
        let team = &setup.teams[r.team];
        let program = &team.robots[usize::from(r.number) - 1].program;
        let name = format!("{}.{}", team.colour, r.number);
        let step = plan.step();
        let at = places.signals[i];
        let warn = |place: (usize, usize), id: WarningId, message: String| {
            let mut d = ctx.err(place, format!("signals[{i}]: {message}"));
            d.severity = crate::text::diagnostic::Severity::Warning;
            d.id = Some(id.code());
            ctx.warnings.borrow_mut().push(d);
        };
        match program.instruction(usize::from(step)) {
            None => warn(
                at,
                WarningId::SignalDoesNothing,
                format!(
                    "step {step} of {name}'s program is empty (it has {}): the signal will do nothing and spend the turn (R-A14)",
                    crate::text::count(program.len(), "step")
                ),
            ),
            Some(instruction) if !instruction.is_action() => warn(
                at,
                WarningId::SignalDoesNothing,
                format!(
                    "step {step} of {name}'s program is `{}`, a control step: the signal will do nothing and spend the turn (R-A14); name a move, turn, shot or explosion",
                    program.notation(instruction)
                ),
            ),
            Some(_) => {}
        }
        if let SignalPlan::Conditional { when, .. } = plan {
            let context = Context {
                teams: setup.teams.iter().map(|t| t.colour).collect(),
                robots: u32::try_from(robots).unwrap_or(u32::MAX),
                shots: u32::from(crate::battle::engine::SHOTS),
                steps: u32::try_from(program.len()).unwrap_or(u32::MAX),
            };
            if never_holds(when, &context) {
                let text = raw[i].when.as_deref().unwrap_or_default();
                let place =
                    crate::text::yaml::locate_text(ctx.source, text, at.0.saturating_sub(3))
                        .unwrap_or(at);
                warn(
                    place,
                    WarningId::NeverHolds,
                    format!("the condition `{text}` can never hold: the signal is never sent"),
                );
            }
        }
    }
}

/// The signal plans (R-A15), with where each is written. Whether they keep the rules is
/// for [`MatchSetup::validate`].
pub(super) fn read_signals(
    ctx: &Ctx,
    raw: &[SignalFile],
    teams: &[TeamSetup],
    rules: &Rules,
) -> Result<Located<Vec<SignalPlan>>, Diagnostic> {
    let mut plans = Vec::new();
    let mut places = Vec::new();
    let mut from = ctx.key("signals", 1).0;
    for (i, s) in raw.iter().enumerate() {
        let at = crate::text::yaml::locate_key(ctx.source, "robot", from).unwrap_or((from, 1));
        from = at.0 + 1;
        let err = |msg: String| ctx.err(at, format!("signals[{i}]: {msg}"));
        let robot = parse_robot_ref(&s.robot, teams).map_err(|e| match e {
            RobotRefError::Name(RobotNameError::Form(_)) => err(e.to_string()),
            _ => err(format!("robot `{}`: {e}", s.robot)),
        })?;
        // Past 255 it is no step of any program; below, the domain says which steps are.
        let step = u8::try_from(s.step).map_err(|_| {
            err(format!(
                "step {} is not a step number (1 to {})",
                s.step, rules.program_steps
            ))
        })?;
        plans.push(match (s.round, &s.when) {
            (Some(round), None) => SignalPlan::Scheduled { round, robot, step },
            (None, Some(text)) => {
                let when = crate::battle::lang::parse_condition_in(ctx.file, text, rules.keywords)
                    .map_err(|d| {
                        // Point into the condition where it sits in the file, when it is on one line.
                        let place = crate::text::yaml::locate_text(
                            ctx.source,
                            text,
                            at.0.saturating_sub(3),
                        )
                        .map_or(at, |(l, c)| (l, c + d.col - 1));
                        ctx.err(place, format!("signals[{i}].when: {}", d.message))
                    })?;
                SignalPlan::Conditional {
                    when,
                    text: text.clone(),
                    robot,
                    step,
                }
            }
            _ => {
                return Err(err(
                    "give either `round:` (a scheduled signal) or `when:` (a conditional one)"
                        .into(),
                ));
            }
        });
        places.push(at);
    }
    Ok((plans, places))
}

/// Why a robot named in a match file is not one of its robots.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RobotRefError {
    #[error("{0}")]
    Name(#[from] RobotNameError),
    #[error("no {0} team in this match")]
    NoTeam(TeamColour),
    #[error("the {colour} team has robots 1 to {count}")]
    NoRobot { colour: TeamColour, count: usize },
}

/// `green.1` → team index and robot number.
pub fn parse_robot_ref(text: &str, teams: &[TeamSetup]) -> Result<RobotRef, RobotRefError> {
    let name = RobotName::parse(text)?;
    let team = teams
        .iter()
        .position(|t| t.colour == name.team)
        .ok_or(RobotRefError::NoTeam(name.team))?;
    let count = teams[team].robots.len();
    if usize::from(name.number) > count {
        return Err(RobotRefError::NoRobot {
            colour: name.team,
            count,
        });
    }
    Ok(RobotRef {
        team,
        number: name.number,
    })
}
