//! Showing: text drawings ([`render`]), SVG pictures ([`svg`]) and the words around them
//! ([`caption`]), the JSON documents ([`report`]) and the replay page's document ([`view`]),
//! all from states and events.

pub mod caption;
pub mod render;
pub mod report;
pub mod svg;
pub mod view;
