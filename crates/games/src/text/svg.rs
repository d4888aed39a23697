//! SVG plumbing the three games' pictures share: numbers written the same way on every
//! machine, a document's frame, and a small stroke font for the labels (digits and the six
//! Micro Robots colour letters). Pictures never use `<text>`: a PNG made from them must not
//! depend on the fonts a machine has (docs/FORMATS.md, "Pictures").

use std::fmt::Write;

/// A coordinate or a length as the pictures write it: at most two decimals, no trailing
/// zeros, never `-0`. The same value gives the same bytes everywhere.
pub fn num(value: f64) -> String {
    if !value.is_finite() || value.abs() < 0.005 {
        return "0".into();
    }
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A whole SVG document of `width` × `height` user units (pixels when rasterised), `body`
/// drawn over a `background` fill (`None`: transparent).
pub fn document(width: f64, height: f64, background: Option<&str>, body: &str) -> String {
    let (w, h) = (num(width.ceil()), num(height.ceil()));
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n"
    );
    if let Some(fill) = background {
        let _ = writeln!(out, "<rect width=\"{w}\" height=\"{h}\" fill=\"{fill}\"/>");
    }
    out.push_str(body);
    out.push_str("</svg>\n");
    out
}

/// A closed polygon through `points`, with the attributes given (` fill="…"` and the like).
pub fn polygon(points: &[(f64, f64)], attributes: &str) -> String {
    let mut d = String::new();
    for (i, (x, y)) in points.iter().enumerate() {
        let _ = write!(
            d,
            "{}{},{}",
            if i == 0 { "M" } else { "L" },
            num(*x),
            num(*y)
        );
    }
    format!("<path d=\"{d}Z\"{attributes}/>\n")
}

/// A circle.
pub fn circle(cx: f64, cy: f64, r: f64, attributes: &str) -> String {
    format!(
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"{attributes}/>\n",
        num(cx),
        num(cy),
        num(r)
    )
}

/// A straight line.
pub fn line(from: (f64, f64), to: (f64, f64), attributes: &str) -> String {
    format!(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{attributes}/>\n",
        num(from.0),
        num(from.1),
        num(to.0),
        num(to.1)
    )
}

/// The corners of a regular polygon of `sides` around `(cx, cy)`, the first at `start`
/// degrees (0 is east, angles grow clockwise on the screen).
pub fn regular(cx: f64, cy: f64, r: f64, sides: u32, start: f64) -> Vec<(f64, f64)> {
    (0..sides)
        .map(|i| {
            let a = (start + 360.0 * f64::from(i) / f64::from(sides)).to_radians();
            (cx + r * a.cos(), cy + r * a.sin())
        })
        .collect()
}

/// A stroke of a glyph: a polyline on the glyph's grid.
type Stroke = &'static [(f32, f32)];

const ROUND: Stroke = &[
    (0.7, 0.),
    (1.3, 0.),
    (2., 0.9),
    (2., 3.1),
    (1.3, 4.),
    (0.7, 4.),
    (0., 3.1),
    (0., 0.9),
    (0.7, 0.),
];
const CURVE: Stroke = &[
    (2., 0.7),
    (1.4, 0.),
    (0.6, 0.),
    (0., 0.7),
    (0., 3.3),
    (0.6, 4.),
    (1.4, 4.),
    (2., 3.3),
];
const BOWL: Stroke = &[
    (0., 4.),
    (0., 0.),
    (1.4, 0.),
    (2., 0.5),
    (2., 1.7),
    (1.4, 2.2),
    (0., 2.2),
];
const DOT: Stroke = &[(1., 3.9), (1., 3.95)];
const QUESTION: &[Stroke] = &[
    &[
        (0., 0.8),
        (0.6, 0.),
        (1.4, 0.),
        (2., 0.7),
        (2., 1.4),
        (1., 2.2),
        (1., 2.9),
    ],
    DOT,
];

/// One glyph of the stroke font: polylines on a grid 2 units wide and 4 high (y down).
/// Look-alikes are drawn apart: `0` is slashed and `O` is not, `D` has square corners on
/// the left, `1` has a flag and no bars while `I` has both bars, `5` has a square top-left
/// corner where `S` is curved, `8` is pinched at the waist where `B` has a straight back.
/// Lower case is drawn as upper case; a character the font lacks, as `?`.
#[rustfmt::skip]
fn glyph(c: char) -> &'static [Stroke] {
    match c {
        '0' => &[ROUND, &[(1.75, 0.8), (0.25, 3.2)]],
        '1' => &[&[(0.3, 0.9), (1.1, 0.), (1.1, 4.)]],
        '2' => &[&[(0., 0.8), (0.6, 0.), (1.4, 0.), (2., 0.7), (2., 1.5), (0., 4.), (2., 4.)]],
        '3' => &[&[(0., 0.6), (0.5, 0.), (1.5, 0.), (2., 0.6), (2., 1.4), (1.4, 2.), (0.7, 2.)],
                 &[(1.4, 2.), (2., 2.6), (2., 3.4), (1.5, 4.), (0.5, 4.), (0., 3.4)]],
        '4' => &[&[(1.5, 4.), (1.5, 0.), (0., 2.8), (2., 2.8)]],
        '5' => &[&[(2., 0.), (0.1, 0.), (0., 1.8), (1.3, 1.8), (2., 2.4), (2., 3.4), (1.4, 4.), (0., 4.)]],
        '6' => &[&[(1.9, 0.4), (1.4, 0.), (0.6, 0.), (0., 0.7), (0., 3.3), (0.6, 4.), (1.4, 4.), (2., 3.3),
                   (2., 2.5), (1.4, 1.9), (0.6, 1.9), (0., 2.5)]],
        '7' => &[&[(0., 0.), (2., 0.), (0.7, 4.)]],
        '8' => &[&[(1., 1.9), (0.3, 1.5), (0.3, 0.5), (0.8, 0.), (1.2, 0.), (1.7, 0.5), (1.7, 1.5), (1., 1.9),
                   (0., 2.5), (0., 3.4), (0.6, 4.), (1.4, 4.), (2., 3.4), (2., 2.5), (1., 1.9)]],
        '9' => &[&[(0.1, 3.6), (0.6, 4.), (1.4, 4.), (2., 3.3), (2., 0.7), (1.4, 0.), (0.6, 0.), (0., 0.7),
                   (0., 1.5), (0.6, 2.1), (1.4, 2.1), (2., 1.5)]],
        _ => letter(c).or_else(|| mark(c)).unwrap_or(QUESTION),
    }
}

/// The letters `A`–`Z`, either case.
#[rustfmt::skip]
fn letter(c: char) -> Option<&'static [Stroke]> {
    Some(match c.to_ascii_uppercase() {
        'A' => &[&[(0., 4.), (1., 0.), (2., 4.)], &[(0.45, 2.6), (1.55, 2.6)]],
        'B' => &[&[(0., 2.), (1.3, 2.), (1.8, 1.6), (1.8, 0.4), (1.4, 0.), (0., 0.), (0., 4.), (1.4, 4.),
                   (2., 3.5), (2., 2.5), (1.3, 2.)]],
        'C' => &[CURVE],
        'D' => &[&[(0., 0.), (1.1, 0.), (2., 0.9), (2., 3.1), (1.1, 4.), (0., 4.), (0., 0.)]],
        'E' => &[&[(2., 0.), (0., 0.), (0., 4.), (2., 4.)], &[(0., 2.), (1.5, 2.)]],
        'F' => &[&[(2., 0.), (0., 0.), (0., 4.)], &[(0., 2.), (1.5, 2.)]],
        'G' => &[CURVE, &[(2., 3.3), (2., 2.2), (1.1, 2.2)]],
        'H' => &[&[(0., 0.), (0., 4.)], &[(2., 0.), (2., 4.)], &[(0., 2.), (2., 2.)]],
        'I' => &[&[(0.4, 0.), (1.6, 0.)], &[(1., 0.), (1., 4.)], &[(0.4, 4.), (1.6, 4.)]],
        'J' => &[&[(0.8, 0.), (2., 0.), (2., 3.3), (1.4, 4.), (0.6, 4.), (0., 3.3)]],
        'K' => &[&[(0., 0.), (0., 4.)], &[(2., 0.), (0., 2.4)], &[(0.7, 1.7), (2., 4.)]],
        'L' => &[&[(0., 0.), (0., 4.), (2., 4.)]],
        'M' => &[&[(0., 4.), (0., 0.), (1., 2.2), (2., 0.), (2., 4.)]],
        'N' => &[&[(0., 4.), (0., 0.), (2., 4.), (2., 0.)]],
        'O' => &[ROUND],
        'P' => &[BOWL],
        'Q' => &[ROUND, &[(1.1, 2.9), (2.1, 4.1)]],
        'R' => &[BOWL, &[(0.9, 2.2), (2., 4.)]],
        'S' => &[&[(2., 0.7), (1.4, 0.), (0.6, 0.), (0., 0.7), (0., 1.4), (2., 2.6), (2., 3.3), (1.4, 4.),
                   (0.6, 4.), (0., 3.3)]],
        'T' => &[&[(0., 0.), (2., 0.)], &[(1., 0.), (1., 4.)]],
        'U' => &[&[(0., 0.), (0., 3.3), (0.6, 4.), (1.4, 4.), (2., 3.3), (2., 0.)]],
        'V' => &[&[(0., 0.), (1., 4.), (2., 0.)]],
        'W' => &[&[(0., 0.), (0.4, 4.), (1., 1.8), (1.6, 4.), (2., 0.)]],
        'X' => &[&[(0., 0.), (2., 4.)], &[(2., 0.), (0., 4.)]],
        'Y' => &[&[(0., 0.), (1., 2.), (2., 0.)], &[(1., 2.), (1., 4.)]],
        'Z' => &[&[(0., 0.), (2., 0.), (0., 4.), (2., 4.)]],
        _ => return None,
    })
}

/// The space and punctuation.
#[rustfmt::skip]
fn mark(c: char) -> Option<&'static [Stroke]> {
    Some(match c {
        ' ' => &[],
        '(' => &[&[(1.3, 0.), (0.7, 0.8), (0.7, 3.2), (1.3, 4.)]],
        ')' => &[&[(0.7, 0.), (1.3, 0.8), (1.3, 3.2), (0.7, 4.)]],
        '[' => &[&[(1.4, 0.), (0.6, 0.), (0.6, 4.), (1.4, 4.)]],
        ']' => &[&[(0.6, 0.), (1.4, 0.), (1.4, 4.), (0.6, 4.)]],
        '/' => &[&[(1.8, 0.), (0.2, 4.)]],
        '-' => &[&[(0.3, 2.), (1.7, 2.)]],
        '+' => &[&[(1., 1.), (1., 3.)], &[(0., 2.), (2., 2.)]],
        '=' => &[&[(0.2, 1.4), (1.8, 1.4)], &[(0.2, 2.6), (1.8, 2.6)]],
        '<' => &[&[(1.7, 0.8), (0.3, 2.), (1.7, 3.2)]],
        '>' => &[&[(0.3, 0.8), (1.7, 2.), (0.3, 3.2)]],
        '×' => &[&[(0.4, 1.4), (1.6, 2.6)], &[(1.6, 1.4), (0.4, 2.6)]],
        '→' => &[&[(0., 2.), (2., 2.)], &[(1.2, 1.2), (2., 2.), (1.2, 2.8)]],
        '←' => &[&[(2., 2.), (0., 2.)], &[(0.8, 1.2), (0., 2.), (0.8, 2.8)]],
        '↑' => &[&[(1., 4.), (1., 0.5)], &[(0.2, 1.3), (1., 0.5), (1.8, 1.3)]],
        '↓' => &[&[(1., 0.), (1., 3.5)], &[(0.2, 2.7), (1., 3.5), (1.8, 2.7)]],
        ':' => &[&[(1., 1.2), (1., 1.25)], &[(1., 3.2), (1., 3.25)]],
        '·' => &[&[(1., 2.), (1., 2.05)]],
        '.' => &[DOT],
        ',' => &[&[(1.1, 3.7), (0.7, 4.5)]],
        '\'' => &[&[(1., 0.), (1., 1.)]],
        '_' => &[&[(0., 4.), (2., 4.)]],
        '!' => &[&[(1., 0.), (1., 2.8)], DOT],
        '?' => QUESTION,
        '#' => &[&[(0.7, 0.3), (0.5, 3.7)], &[(1.5, 0.3), (1.3, 3.7)], &[(0., 1.3), (2., 1.3)],
                 &[(0., 2.7), (2., 2.7)]],
        _ => return None,
    })
}

/// Whether the stroke font draws `c` as itself (others are drawn as `?`).
pub fn has_glyph(c: char) -> bool {
    c.is_ascii_digit() || letter(c).is_some() || mark(c).is_some()
}

/// How wide `text` is in the stroke font at `height`: each character takes three quarters
/// of the height, less the last gap.
pub fn text_width(text: &str, height: f64) -> f64 {
    let count = f64::from(u32::try_from(text.chars().count()).unwrap_or(u32::MAX));
    ((3.0 * count - 1.0) * height / 4.0).max(0.0)
}

/// How many things `each` long fit in `room`: at least `least`, at most `most`.
pub fn fits(room: f64, each: f64, least: usize, most: usize) -> usize {
    (least..most)
        .take_while(|k| (*k + 1) as f64 * each <= room)
        .last()
        .map_or(least, |k| k + 1)
}

/// `text` cut to at most `max` characters, `..` marking a cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(2)).collect();
    out.push_str("..");
    out
}

/// The path data of `text` in the stroke font, centred on `(cx, cy)`, `height` high.
pub fn strokes(text: &str, cx: f64, cy: f64, height: f64) -> String {
    let unit = height / 4.0;
    let (mut x0, y0) = (cx - text_width(text, height) / 2.0, cy - height / 2.0);
    let mut d = String::new();
    for c in text.chars() {
        for stroke in glyph(c) {
            for (i, (x, y)) in stroke.iter().enumerate() {
                let _ = write!(
                    d,
                    "{}{},{}",
                    if i == 0 { "M" } else { "L" },
                    num(x0 + f64::from(*x) * unit),
                    num(y0 + f64::from(*y) * unit)
                );
            }
        }
        x0 += 3.0 * unit;
    }
    d
}

/// `text` in the stroke font as one path, centred on `(cx, cy)`, in `colour`.
pub fn label(text: &str, cx: f64, cy: f64, height: f64, colour: &str) -> String {
    let d = strokes(text, cx, cy, height);
    if d.is_empty() {
        return String::new();
    }
    format!(
        "<path d=\"{d}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n",
        num(height / 7.0)
    )
}

/// `text` in the stroke font starting at `x`, centred on `cy`: a line of words in a
/// picture's margins.
pub fn words(text: &str, x: f64, cy: f64, height: f64, colour: &str) -> String {
    label(text, x + text_width(text, height) / 2.0, cy, height, colour)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_never_negative_zero() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.25), "1.25");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(10.5), "10.5");
        assert_eq!(num(f64::NAN), "0");
    }

    #[test]
    fn every_digit_and_colour_letter_has_a_glyph() {
        for c in "0123456789BYGRPW".chars() {
            assert!(has_glyph(c), "{c}");
            assert!(strokes(&c.to_string(), 0.0, 0.0, 8.0).starts_with('M'));
        }
        assert_eq!(label("", 0.0, 0.0, 8.0, "#000"), "");
    }
}
