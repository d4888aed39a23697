//! Pictures written by the commands (docs/FORMATS.md, "Pictures"): the SVG the game folders
//! draw, as it is, as a PNG (resvg, no fonts needed: the drawings have no text), and a whole
//! match as an animated GIF (one frame per robot turn that changes the picture). `-` writes
//! to standard output; a binary format is never written to a terminal.

use crate::cli::args::flags::MatchPictureArgs;
use crate::cli::args::game_flags::PictureArgs;
use crate::cli::io::output::Failure;
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;
use robots_games::battle::engine::{Event, Match, MatchSetup};
use robots_games::battle::show::svg::{self as battle_svg, Caption};
use std::collections::HashMap;
use std::path::Path;

/// The most pixels a PNG may have (4096 × 4096): pictures of the largest boards stay under.
pub const MAX_PNG_PIXELS: u64 = 4096 * 4096;
/// A GIF's longest side, in pixels: bigger boards are scaled down.
pub const MAX_GIF_SIDE: f32 = 1024.0;
/// The most frames a GIF has: longer matches show one visible turn in every few.
pub const MAX_GIF_FRAMES: u64 = 3000;
/// Frame delays, in hundredths of a second: each turn, the first and the last picture.
const TURN_DELAY: u16 = 20;
const FIRST_DELAY: u16 = 100;
const LAST_DELAY: u16 = 400;

fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Writes an SVG document to `path` (`-`: standard output).
pub fn write_svg(svg: &str, path: &Path) -> Result<(), Failure> {
    if is_stdout(path) {
        out!("{svg}");
        return Ok(());
    }
    std::fs::write(path, svg)
        .map_err(|e| format!("{}: error: cannot write the picture: {e}", path.display()))?;
    Ok(())
}

/// Writes an SVG document as a PNG to `path` (`-`: standard output, unless a terminal).
pub fn write_png(svg: &str, path: &Path) -> Result<(), Failure> {
    let bytes = png_bytes(svg)?;
    write_binary(&bytes, path, "PNG")
}

/// The PNG of an SVG document, at its own size.
pub fn png_bytes(svg: &str) -> Result<Vec<u8>, Failure> {
    let pixmap = rasterise(&tree(svg)?, 1.0, MAX_PNG_PIXELS)?;
    pixmap
        .encode_png()
        .map_err(|e| Failure::Bad(format!("cannot encode the PNG: {e}")))
}

/// Plays the match of `setup` and writes it as an animated GIF to `path` (`-`: standard
/// output, unless a terminal).
pub fn write_gif(setup: &MatchSetup, path: &Path) -> Result<(), Failure> {
    let (bytes, note) = gif_bytes(setup)?;
    if let Some(note) = note {
        eprintln!("{}: {note}", path.display());
    }
    write_binary(&bytes, path, "GIF")
}

fn write_binary(bytes: &[u8], path: &Path, what: &str) -> Result<(), Failure> {
    use std::io::IsTerminal;
    if is_stdout(path) {
        if std::io::stdout().is_terminal() {
            return Err(Failure::Bad(format!(
                "a {what} is binary: not written to a terminal (redirect standard output, or name a file)"
            )));
        }
        crate::cli::io::output::emit_bytes(bytes);
        return Ok(());
    }
    std::fs::write(path, bytes)
        .map_err(|e| format!("{}: error: cannot write the {what}: {e}", path.display()))?;
    Ok(())
}

fn tree(svg: &str) -> Result<usvg::Tree, Failure> {
    usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| Failure::Bad(format!("cannot read the SVG: {e}")))
}

/// Renders a tree at `scale` onto a new pixmap of at most `max_pixels`.
fn rasterise(tree: &usvg::Tree, scale: f32, max_pixels: u64) -> Result<Pixmap, Failure> {
    let mut pixmap = blank(tree, scale, max_pixels)?;
    resvg::render(
        tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// A transparent pixmap the size of `tree` at `scale`, if it has at most `max_pixels`.
fn blank(tree: &usvg::Tree, scale: f32, max_pixels: u64) -> Result<Pixmap, Failure> {
    let size = tree.size().to_int_size();
    let too_big = || {
        Failure::Bad(format!(
            "the picture would be {} x {} pixels: at most {max_pixels} pixels",
            size.width(),
            size.height()
        ))
    };
    let size = size.scale_by(scale).ok_or_else(too_big)?;
    if u64::from(size.width()) * u64::from(size.height()) > max_pixels {
        return Err(too_big());
    }
    Pixmap::new(size.width(), size.height()).ok_or_else(too_big)
}

/// `board --svg/--png`, `micro board`, `ricochet board`: writes the pictures asked for,
/// each with a line on standard error naming it (none for `-`).
pub fn write_pictures(picture: &PictureArgs, svg: &str) -> Result<(), Failure> {
    if [&picture.svg, &picture.png]
        .iter()
        .filter(|p| p.as_deref().is_some_and(is_stdout))
        .count()
        > 1
    {
        return Err(Failure::Bad(
            "only one picture can go to standard output (`-`)".into(),
        ));
    }
    if let Some(path) = &picture.svg {
        write_svg(svg, path)?;
        note(path, "SVG");
    }
    if let Some(path) = &picture.png {
        write_png(svg, path)?;
        note(path, "PNG");
    }
    Ok(())
}

fn note(path: &Path, what: &str) {
    if !is_stdout(path) {
        eprintln!("wrote {what} picture {}", path.display());
    }
}

/// `ricochet board --svg/--png` on a position: with `solution`, solved as `ricochet solve`
/// solves it (40 moves at most, the default state budget) and its moves drawn.
pub fn ricochet_position(
    p: &robots_games::ricochet::position::Position,
    picture: &PictureArgs,
    solution: bool,
) -> Result<(), Failure> {
    use robots_games::ricochet::solve::{Budget, NoSolution, solve_within};
    const MAX_MOVES: u32 = 40;
    let moves = if solution {
        let found = solve_within(p, MAX_MOVES, Budget::default(), &mut |_| {});
        found
            .map_err(|e| match e {
                NoSolution::Limit(_) => {
                    Failure::NoAnswer(format!("no solution within {MAX_MOVES} moves"))
                }
                NoSolution::Budget(n) => Failure::NoAnswer(format!(
                    "gave up after {n} states: no solution to draw (`ricochet solve --max-states` goes further)"
                )),
                NoSolution::Malformed => Failure::Bad(e.to_string()),
            })?
            .solution
    } else {
        Vec::new()
    };
    write_pictures(picture, &robots_games::ricochet::svg::position(p, &moves))
}

/// `ricochet board --svg/--png` on a custom board: the board with its bases.
pub fn ricochet_board(
    board: &robots_games::ricochet::board::Board,
    picture: &PictureArgs,
    solution: bool,
) -> Result<(), Failure> {
    if solution {
        return Err(Failure::Bad(
            "--solution needs a position (robots and a target), not a board file".into(),
        ));
    }
    write_pictures(
        picture,
        &robots_games::ricochet::svg::board(board, &board.bases),
    )
}

/// `run --svg/--png/--gif`: the pictures of the match of `setup`, the still ones after
/// `--round` (else at the end). `others` says whether the command writes anything else to
/// standard output; then no picture may go there. `Ok(true)` when a picture went to
/// standard output, and the command should print nothing more.
pub fn match_pictures(
    setup: &MatchSetup,
    picture: &MatchPictureArgs,
    others: bool,
) -> Result<bool, Failure> {
    let paths = [&picture.svg, &picture.png, &picture.gif];
    let to_stdout = paths
        .iter()
        .filter(|p| p.as_deref().is_some_and(is_stdout))
        .count();
    if to_stdout > 1 || (to_stdout == 1 && others) {
        return Err(Failure::Bad(
            "only one thing can go to standard output: a picture written to `-` cannot share it with another, --log, --json or --replay -".into(),
        ));
    }
    if picture.round.is_some() && picture.svg.is_none() && picture.png.is_none() {
        return Err(Failure::Bad(
            "--round chooses the state --svg and --png draw: add one of them".into(),
        ));
    }
    if picture.svg.is_some() || picture.png.is_some() {
        let svg = state_after(setup, picture.round)?;
        let still = PictureArgs {
            svg: picture.svg.clone(),
            png: picture.png.clone(),
        };
        write_pictures(&still, &svg)?;
    }
    if let Some(path) = &picture.gif {
        write_gif(setup, path)?;
        note(path, "GIF");
    }
    Ok(to_stdout == 1)
}

/// The SVG of the match after `round` (0: before play; none or past the end: the end), with
/// what its last robot turn did.
pub fn state_after(setup: &MatchSetup, round: Option<u32>) -> Result<String, Failure> {
    let mut m = Match::new(setup)?;
    let mut last = Vec::new();
    let mut events = Vec::new();
    while !m.is_over() && round.is_none_or(|r| m.clock().round <= r) {
        events.clear();
        if !m.step_into(&mut events) {
            break;
        }
        if !events.is_empty() {
            std::mem::swap(&mut last, &mut events);
        }
    }
    Ok(battle_svg::state(&m, &last, &Caption::game(setup)))
}

/// An animated GIF of a whole match, and a note when it shows only some of the turns.
pub fn gif_bytes(setup: &MatchSetup) -> Result<(Vec<u8>, Option<String>), Failure> {
    let start = Match::new(setup)?;
    // First pass: how many turns change the picture, to keep within MAX_GIF_FRAMES.
    let mut visible = 0u64;
    let mut counting = start.clone();
    let mut events = Vec::new();
    while !counting.is_over() {
        events.clear();
        if !counting.step_into(&mut events) {
            break;
        }
        visible += u64::from(battle_svg::visible(&events));
    }
    let every = visible.div_ceil(MAX_GIF_FRAMES).max(1);
    let caption = Caption::game(setup);
    let base_tree = tree(&crispy(&battle_svg::backdrop(&start, &caption)))?;
    let size = base_tree.size();
    let scale = (MAX_GIF_SIDE / size.width().max(size.height())).min(1.0);
    let base = rasterise(&base_tree, scale, MAX_PNG_PIXELS)?;
    let frame = |m: &Match, turn: &[Event]| frame(&base, m, turn, &caption, scale);
    let mut gif = Animation::new(&base, frame(&start, &[])?)?;
    let mut m = start;
    let mut seen = 0u64;
    while !m.is_over() {
        events.clear();
        if !m.step_into(&mut events) {
            break;
        }
        if battle_svg::visible(&events) {
            seen += 1;
            if seen.is_multiple_of(every) || m.is_over() {
                gif.push(frame(&m, &events)?)?;
            }
        }
    }
    let last = frame(&m, &[])?;
    if !gif.shows(&last) {
        gif.push(last)?;
    }
    let frames = gif.frames;
    let bytes = gif.finish()?;
    let note = (every > 1).then(|| {
        format!(
            "{visible} robot turns change the picture: the GIF shows 1 in {every} ({frames} frames, at most {MAX_GIF_FRAMES})"
        )
    });
    Ok((bytes, note))
}

/// The drawing with crisp edges: a GIF frame then holds the palette's colours only.
fn crispy(svg: &str) -> String {
    svg.replacen("<svg ", "<svg shape-rendering=\"crispEdges\" ", 1)
}

/// The board with the robots of `m`, what `turn` did, the round and the result drawn over it.
fn frame(
    base: &Pixmap,
    m: &Match,
    turn: &[Event],
    caption: &Caption,
    scale: f32,
) -> Result<Pixmap, Failure> {
    let mut pixmap = base.clone();
    let overlay = tree(&crispy(&battle_svg::overlay(m, turn, caption)))?;
    resvg::render(
        &overlay,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// A GIF being written: a global palette, then each frame as the rectangle that changed.
struct Animation {
    encoder: gif::Encoder<Vec<u8>>,
    palette: Palette,
    width: u16,
    /// The picture shown so far, and the frame not yet written (its delay depends on
    /// whether another follows).
    shown: Pixmap,
    pending: Option<(gif::Frame<'static>, u16)>,
    frames: u64,
}

impl Animation {
    fn new(base: &Pixmap, first: Pixmap) -> Result<Animation, Failure> {
        let palette = Palette::new(base, &first);
        let too_big = |_| Failure::Bad("the GIF would be too large".to_string());
        let width = u16::try_from(first.width()).map_err(too_big)?;
        let height = u16::try_from(first.height()).map_err(too_big)?;
        let mut encoder =
            gif::Encoder::new(Vec::new(), width, height, &palette.rgb).map_err(gif_error)?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(gif_error)?;
        let mut a = Animation {
            encoder,
            palette,
            width,
            shown: first.clone(),
            pending: None,
            frames: 0,
        };
        let whole = a
            .palette
            .indices(width, &first, None, (0, 0, width, height));
        let mut frame = gif::Frame::from_indexed_pixels(width, height, whole, None);
        frame.delay = FIRST_DELAY;
        a.pending = Some((frame, FIRST_DELAY));
        a.frames = 1;
        Ok(a)
    }

    /// Whether `picture` is what the animation shows now.
    fn shows(&self, picture: &Pixmap) -> bool {
        self.shown.data() == picture.data()
    }

    /// Adds a frame: the rectangle of pixels that changed (none: nothing added).
    fn push(&mut self, picture: Pixmap) -> Result<(), Failure> {
        let Some(rect) = changed(&self.shown, &picture, self.width) else {
            return Ok(());
        };
        let pixels = self
            .palette
            .indices(self.width, &picture, Some(&self.shown), rect);
        self.shown = picture;
        let transparent = Some(self.palette.transparent);
        let mut frame = gif::Frame::from_indexed_pixels(rect.2, rect.3, pixels, transparent);
        (frame.left, frame.top) = (rect.0, rect.1);
        self.flush()?;
        self.pending = Some((frame, TURN_DELAY));
        self.frames += 1;
        Ok(())
    }

    /// Writes the pending frame with its delay: another frame follows it.
    fn flush(&mut self) -> Result<(), Failure> {
        if let Some((mut frame, delay)) = self.pending.take() {
            frame.delay = delay;
            self.encoder.write_frame(&frame).map_err(gif_error)?;
        }
        Ok(())
    }

    fn finish(mut self) -> Result<Vec<u8>, Failure> {
        if let Some((mut frame, _)) = self.pending.take() {
            frame.delay = LAST_DELAY;
            self.encoder.write_frame(&frame).map_err(gif_error)?;
        }
        self.encoder
            .into_inner()
            .map_err(|e| Failure::Bad(format!("cannot write the GIF: {e}")))
    }
}

fn gif_error(e: gif::EncodingError) -> Failure {
    Failure::Bad(format!("cannot encode the GIF: {e}"))
}

/// The smallest rectangle `(left, top, width, height)` holding every pixel that differs.
fn changed(a: &Pixmap, b: &Pixmap, width: u16) -> Option<(u16, u16, u16, u16)> {
    let stride = usize::from(width) * 4;
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (y, (ra, rb)) in a
        .data()
        .chunks_exact(stride)
        .zip(b.data().chunks_exact(stride))
        .enumerate()
    {
        if ra == rb {
            continue;
        }
        let differs = |x: &usize| ra[x * 4..x * 4 + 4] != rb[x * 4..x * 4 + 4];
        let first = (0..usize::from(width)).find(differs)?;
        let last = (0..usize::from(width)).rev().find(differs)?;
        (x0, x1) = (x0.min(first), x1.max(last));
        (y0, y1) = (y0.min(y), y1.max(y));
    }
    if x0 == usize::MAX {
        return None;
    }
    let n = |v: usize| u16::try_from(v).ok();
    Some((n(x0)?, n(y0)?, n(x1 - x0 + 1)?, n(y1 - y0 + 1)?))
}

/// A fixed palette of at most 255 colours: the drawings' own colours, then those of the
/// first frame in reading order (camp tints); any other colour goes to the nearest. The
/// index after the last colour is transparent: what a frame leaves as it was.
struct Palette {
    rgb: Vec<u8>,
    colours: Vec<[u8; 3]>,
    known: HashMap<[u8; 3], u8>,
    transparent: u8,
}

impl Palette {
    fn new(base: &Pixmap, first: &Pixmap) -> Palette {
        let mut p = Palette {
            rgb: Vec::new(),
            colours: Vec::new(),
            known: HashMap::new(),
            transparent: 0,
        };
        for hex in battle_svg::palette() {
            if let Some(c) = parse_hex(hex) {
                p.add(c);
            }
        }
        for picture in [base, first] {
            for px in picture.data().chunks_exact(4) {
                p.add([px[0], px[1], px[2]]);
            }
        }
        p.transparent = u8::try_from(p.colours.len()).unwrap_or(u8::MAX);
        p.rgb.extend([0, 0, 0]);
        p
    }

    fn add(&mut self, c: [u8; 3]) {
        if self.colours.len() < 255 && !self.known.contains_key(&c) {
            let index = u8::try_from(self.colours.len()).unwrap_or(u8::MAX);
            self.known.insert(c, index);
            self.colours.push(c);
            self.rgb.extend(c);
        }
    }

    /// The palette indices of a rectangle `(left, top, width, height)` of `picture`; with
    /// `shown`, the pixels that stay as they are transparent (long runs compress well).
    fn indices(
        &mut self,
        width: u16,
        picture: &Pixmap,
        shown: Option<&Pixmap>,
        (left, top, w, h): (u16, u16, u16, u16),
    ) -> Vec<u8> {
        let data = picture.data();
        let before = shown.map(Pixmap::data);
        let stride = usize::from(width);
        let mut out = Vec::with_capacity(usize::from(w) * usize::from(h));
        for y in usize::from(top)..usize::from(top) + usize::from(h) {
            let row = y * stride;
            for x in usize::from(left)..usize::from(left) + usize::from(w) {
                let i = (row + x) * 4;
                if before.is_some_and(|b| b[i..i + 3] == data[i..i + 3]) {
                    out.push(self.transparent);
                } else {
                    out.push(self.index([data[i], data[i + 1], data[i + 2]]));
                }
            }
        }
        out
    }

    /// The index of a colour, or of the nearest one (remembered).
    fn index(&mut self, c: [u8; 3]) -> u8 {
        if let Some(&i) = self.known.get(&c) {
            return i;
        }
        let distance =
            |p: &[u8; 3]| -> u32 { (0..3).map(|k| u32::from(p[k].abs_diff(c[k])).pow(2)).sum() };
        let nearest = (0u8..)
            .zip(&self.colours)
            .min_by_key(|(_, p)| distance(p))
            .map_or(0, |(i, _)| i);
        self.known.insert(c, nearest);
        nearest
    }
}

fn parse_hex(hex: &str) -> Option<[u8; 3]> {
    let digits = hex.strip_prefix('#')?;
    let byte = |i: usize| u8::from_str_radix(digits.get(i..i + 2)?, 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}
