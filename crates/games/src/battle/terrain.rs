//! What a hex can hold (RULES A.2) and the colours of teams and shapes.

use std::fmt;

/// A team's colour, in the rules' order (RULES A.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TeamColour {
    Green,
    Violet,
    Red,
    Blue,
    Yellow,
    Orange,
}

impl TeamColour {
    pub const ALL: [TeamColour; 6] = [
        TeamColour::Green,
        TeamColour::Violet,
        TeamColour::Red,
        TeamColour::Blue,
        TeamColour::Yellow,
        TeamColour::Orange,
    ];

    pub fn parse(word: &str) -> Option<TeamColour> {
        Self::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(word))
    }

    pub fn name(self) -> &'static str {
        match self {
            TeamColour::Green => "green",
            TeamColour::Violet => "violet",
            TeamColour::Red => "red",
            TeamColour::Blue => "blue",
            TeamColour::Yellow => "yellow",
            TeamColour::Orange => "orange",
        }
    }

    /// The one-letter mark used in board drawings.
    pub fn letter(self) -> char {
        self.name().chars().next().unwrap_or('?')
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn names() -> String {
        Self::ALL.map(|c| c.name()).join(", ")
    }
}

impl fmt::Display for TeamColour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The colour of an obstacle shape (RULES A.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeColour {
    Red,
    Blue,
    Green,
    Yellow,
    Orange,
    Black,
}

impl ShapeColour {
    pub const ALL: [ShapeColour; 6] = [
        ShapeColour::Red,
        ShapeColour::Blue,
        ShapeColour::Green,
        ShapeColour::Yellow,
        ShapeColour::Orange,
        ShapeColour::Black,
    ];

    pub fn parse(word: &str) -> Option<ShapeColour> {
        Self::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(word))
    }

    pub fn name(self) -> &'static str {
        match self {
            ShapeColour::Red => "red",
            ShapeColour::Blue => "blue",
            ShapeColour::Green => "green",
            ShapeColour::Yellow => "yellow",
            ShapeColour::Orange => "orange",
            ShapeColour::Black => "black",
        }
    }

    /// The one-letter mark used in board drawings (`k` for black).
    pub fn letter(self) -> char {
        match self {
            ShapeColour::Black => 'k',
            other => other.name().chars().next().unwrap_or('?'),
        }
    }

    pub fn names() -> String {
        Self::ALL.map(|c| c.name()).join(", ")
    }
}

/// The form of an obstacle shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    Square,
    Triangle,
    Circle,
}

impl Form {
    pub const ALL: [Form; 3] = [Form::Square, Form::Triangle, Form::Circle];

    /// The singular or plural name of a form.
    pub fn parse(word: &str) -> Option<Form> {
        let w = word.to_ascii_lowercase();
        let w = w.strip_suffix('s').unwrap_or(&w);
        Self::ALL.into_iter().find(|f| f.name() == w)
    }

    pub fn name(self) -> &'static str {
        match self {
            Form::Square => "square",
            Form::Triangle => "triangle",
            Form::Circle => "circle",
        }
    }

    /// The brackets drawn around the colour letter: `[r]`, `<r>`, `(r)`.
    pub fn brackets(self) -> (char, char) {
        match self {
            Form::Square => ('[', ']'),
            Form::Triangle => ('<', '>'),
            Form::Circle => ('(', ')'),
        }
    }
}

/// The ground of a hex. Camps and start points are marks on top of plain ground.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    Plain,
    /// Entering it drowns the robot (RULES A.2, R-A3).
    Lake,
    /// Entering it destroys the step being read (R-A4).
    Lightning,
    /// An obstacle under the advanced rule; always visible to tests.
    Shape(Form, ShapeColour),
    /// A camp's central computer: impassable, stops shots, the target of scenario 3.
    Computer(TeamColour),
}
