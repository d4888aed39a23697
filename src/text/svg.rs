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

/// One glyph of the stroke font: polylines on a grid 2 units wide and 4 high (y down).
fn glyph(c: char) -> &'static [&'static [(f32, f32)]] {
    match c {
        '0' => &[&[(0., 0.), (2., 0.), (2., 4.), (0., 4.), (0., 0.)]],
        '1' => &[&[(0.2, 1.), (1., 0.), (1., 4.)]],
        '2' => &[&[(0., 0.), (2., 0.), (2., 2.), (0., 2.), (0., 4.), (2., 4.)]],
        '3' => &[
            &[(0., 0.), (2., 0.), (2., 4.), (0., 4.)],
            &[(0.5, 2.), (2., 2.)],
        ],
        '4' => &[&[(0., 0.), (0., 2.), (2., 2.)], &[(2., 0.), (2., 4.)]],
        '5' => &[&[(2., 0.), (0., 0.), (0., 2.), (2., 2.), (2., 4.), (0., 4.)]],
        '6' => &[&[(2., 0.), (0., 0.), (0., 4.), (2., 4.), (2., 2.), (0., 2.)]],
        '7' => &[&[(0., 0.), (2., 0.), (0.8, 4.)]],
        '8' => &[
            &[(0., 0.), (2., 0.), (2., 4.), (0., 4.), (0., 0.)],
            &[(0., 2.), (2., 2.)],
        ],
        '9' => &[&[(2., 2.), (0., 2.), (0., 0.), (2., 0.), (2., 4.), (0., 4.)]],
        'B' => &[
            &[(0., 0.), (0., 4.), (2., 4.), (2., 2.), (0., 2.)],
            &[(0., 0.), (1.6, 0.), (1.6, 2.)],
        ],
        'Y' => &[&[(0., 0.), (1., 2.), (2., 0.)], &[(1., 2.), (1., 4.)]],
        'G' => &[&[(2., 0.), (0., 0.), (0., 4.), (2., 4.), (2., 2.), (1., 2.)]],
        'R' => &[&[(0., 4.), (0., 0.), (2., 0.), (2., 2.), (0., 2.), (2., 4.)]],
        'P' => &[&[(0., 4.), (0., 0.), (2., 0.), (2., 2.), (0., 2.)]],
        'W' => &[&[(0., 0.), (0., 4.), (1., 2.5), (2., 4.), (2., 0.)]],
        '-' => &[&[(0.3, 2.), (1.7, 2.)]],
        _ => &[],
    }
}

/// Whether the stroke font draws `c` (others leave a blank).
pub fn has_glyph(c: char) -> bool {
    c == ' ' || !glyph(c).is_empty()
}

/// The path data of `text` in the stroke font, centred on `(cx, cy)`, `height` high.
pub fn strokes(text: &str, cx: f64, cy: f64, height: f64) -> String {
    let unit = height / 4.0;
    let count = text.chars().count();
    let count = f64::from(u32::try_from(count).unwrap_or(u32::MAX));
    let width = (3.0 * count - 1.0) * unit;
    let (mut x0, y0) = (cx - width / 2.0, cy - height / 2.0);
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
