//! Board tests: every `tests/boards/*.yaml` and every shipped board. Valid boards snapshot
//! their drawing; `err_*` files snapshot the diagnostic.

use crate::support::{file_name, input, root, shown};
use robots_games::battle::board::Board;
use robots_games::battle::files::board_file::parse_board;
use robots_games::battle::hex::Hex;
use robots_games::battle::terrain::{TeamColour, Terrain};
use robots_games::text::diagnostic::Diagnostic;
use std::path::Path;

fn load(path: &Path, shown: &str) -> Result<Board, Diagnostic> {
    input(path, shown)
        .1
        .and_then(|text| parse_board(shown, &text))
}

#[test]
fn board_files() {
    insta::glob!("../boards", "*.yaml", |path| {
        let name = file_name(path);
        let shown = shown("boards", path);
        let (input, text) = input(path, &shown);
        let result = text.and_then(|text| parse_board(&shown, &text));
        assert_eq!(
            result.is_err(),
            name.starts_with("err_"),
            "{name}: err_* files, and only they, must be rejected"
        );
        let output = match result {
            Ok(board) => robots_games::battle::show::render::board(&board),
            Err(d) => d.to_string(),
        };
        snapshot!(
            "board_files",
            format!("{input}\n---- result ----\n{output}")
        );
    });
}

#[test]
fn shipped_boards() {
    insta::glob!("../../boards", "*.yaml", |path| {
        let board = load(path, &path.display().to_string()).expect("shipped boards are valid");
        snapshot!(
            "shipped_boards",
            robots_games::battle::show::render::board(&board)
        );
    });
}

/// The requirements for `classic.yaml`, checked one by one.
#[test]
fn classic_board_is_big_enough_balanced_and_symmetric() {
    let b = load(&root().join("boards/classic.yaml"), "boards/classic.yaml").unwrap();
    assert!(b.width >= 13 && b.height >= 11, "at least 13 x 11 hexes");
    let count = |f: &dyn Fn(&robots_games::battle::board::Cell) -> bool| {
        b.cells().filter(|(_, c)| f(c)).count()
    };
    for colour in [TeamColour::Green, TeamColour::Violet] {
        assert!(
            count(&|c| c.start && c.camp == Some(colour)) >= 4,
            "{colour}: 4 start points"
        );
        assert!(b.computer_of(colour).is_some(), "{colour}: a computer");
    }
    assert!(
        count(&|c| c.start && c.camp.is_none()) >= 2,
        "2 outer start points"
    );
    assert!(count(&|c| c.terrain == Terrain::Lake) >= 3, "3 lakes");
    assert!(
        count(&|c| c.terrain == Terrain::Lightning) >= 2,
        "2 lightning hexes"
    );
    let shapes: Vec<_> = b
        .cells()
        .filter_map(|(_, c)| match c.terrain {
            Terrain::Shape(form, _) => Some(form),
            _ => None,
        })
        .collect();
    assert!(shapes.len() >= 6, "6 shapes");
    assert!(
        robots_games::battle::terrain::Form::ALL
            .iter()
            .all(|f| shapes.contains(f)),
        "3 forms"
    );
    // Green's camp at the bottom, violet's at the top.
    let row_of = |colour| b.offset(b.computer_of(colour).unwrap()).1;
    assert!(row_of(TeamColour::Green) > b.height / 2 && row_of(TeamColour::Violet) < b.height / 2);
    // A half-turn about the centre maps the board onto itself, camps swapped.
    let swap = |c: Option<TeamColour>| {
        c.map(|c| match c {
            TeamColour::Green => TeamColour::Violet,
            TeamColour::Violet => TeamColour::Green,
            other => other,
        })
    };
    let (w, h) = (
        i32::try_from(b.width).unwrap(),
        i32::try_from(b.height).unwrap(),
    );
    for (id, cell) in b.cells() {
        let (col, row) = b.offset(id);
        let turned = b
            .cell_at_offset(
                w - 1 - i32::try_from(col).unwrap(),
                h - 1 - i32::try_from(row).unwrap(),
            )
            .unwrap();
        // Check it is a true hex half-turn: distances to a fixed pair of hexes are preserved.
        let (a, a_turned) = (b.hex(id), b.hex(turned));
        assert_eq!(
            a.distance(Hex::from_offset(0, 0)),
            a_turned.distance(Hex::from_offset(w - 1, h - 1))
        );
        let other = b.cell(turned);
        let terrain_turned = match cell.terrain {
            Terrain::Computer(c) => Terrain::Computer(swap(Some(c)).unwrap()),
            t => t,
        };
        assert_eq!(other.terrain, terrain_turned, "hex [{col}, {row}]");
        assert_eq!(other.camp, swap(cell.camp), "hex [{col}, {row}]");
        assert_eq!(other.start, cell.start, "hex [{col}, {row}]");
    }
}
