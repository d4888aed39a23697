// The replay page's palette, written from crates/games/src/text/palette.rs (the SVG pictures' own):
// do not edit. tests/suite/viewer.rs checks this file is what the crate writes.
'use strict';

const RobotsPalette = {
  plain: '#f4efe1',
  stroke: '#9a927d',
  lake: '#7fb7e6',
  lightning: '#ffe066',
  bolt: '#b8860b',
  computer: '#333333',
  start: '#222222',
  campOpacity: 0.25,
  shapes: {
    red: '#d64541',
    blue: '#3b6fd6',
    green: '#3fa34d',
    yellow: '#e8c21c',
    orange: '#f08a24',
    black: '#222222',
  },
  teams: {
    green: '#2e9e44',
    violet: '#8a4fc8',
    red: '#d23c3c',
    blue: '#2f6fd0',
    yellow: '#d9b400',
    orange: '#e67e22',
  },
};

if (typeof module === 'object' && module.exports) module.exports = RobotsPalette;
