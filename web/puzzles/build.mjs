// The puzzle pages' part of the static folder (web/play/build.mjs calls it before it counts
// the folder's size): ricochet.js, micro.js and the puzzles' worker bundled with esbuild
// (engine.js inside), the pages made from page.html and their bodies (`ricochet.main.html`,
// `micro.main.html`), the style sheet copied. `ricochet.html` and `micro.html` are
// /play/ricochet and /play/micro.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export async function buildPuzzles(esbuild, out) {
  await esbuild.build({
    entryPoints: {
      ricochet: path.join(here, 'ricochet.js'),
      micro: path.join(here, 'micro.js'),
      'puzzles-worker': path.join(here, 'worker.js'),
    },
    outdir: out,
    bundle: true,
    format: 'esm',
    minify: true,
    target: ['chrome110', 'firefox115', 'safari16.4'],
    external: ['node:*'],
    legalComments: 'eof',
    logLevel: 'warning',
  });
  fs.copyFileSync(path.join(here, 'puzzles.css'), path.join(out, 'puzzles.css'));
  const template = fs.readFileSync(path.join(here, 'page.html'), 'utf8');
  for (const [name, fill] of Object.entries(PAGES)) {
    const main = fs.readFileSync(path.join(here, `${name}.main.html`), 'utf8');
    const page = Object.entries({ ...fill, SCRIPT: `${name}.js`, MAIN: main })
      .reduce((text, [key, value]) => text.replaceAll(`{{${key}}}`, value), template);
    fs.writeFileSync(path.join(out, `${name}.html`), page);
  }
}

/** Each page: page.html's head and header filled, its `NAME.main.html` as the body. */
const PAGES = {
  ricochet: {
    TITLE: 'Ricochet Robots puzzles',
    HEADING: 'Ricochet Robots <small>puzzles in the browser</small>',
    NAV: '<a href="micro">Micro Robots</a> · <a href="./">write robots</a>',
  },
  micro: {
    TITLE: 'Micro Robots missions',
    HEADING: 'Micro Robots <small>missions in the browser</small>',
    NAV: '<a href="ricochet">Ricochet Robots</a> · <a href="./">write robots</a>',
  },
};
