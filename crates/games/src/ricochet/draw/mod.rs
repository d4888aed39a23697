//! Boards, positions and solutions shown: [`text`] for the terminal, [`svg`] as pictures.

pub mod svg;
pub mod text;
