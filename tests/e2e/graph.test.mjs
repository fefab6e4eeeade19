// The Graph tab a person can read: it opens on the critical path (the path
// along one line, labels readable), the wheel zooms around the cursor, a
// drag pans, W/S/A/D zoom and pan, Fit shows everything, a double click
// fits a node, and a task selected elsewhere is centred.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './harness.mjs';

/** The graph's frame and its nodes' boxes on screen. */
async function boxes(page, selector) {
  return page.evaluate((selector) => {
    const frame = document.querySelector('.graph-frame').getBoundingClientRect();
    const nodes = [...document.querySelectorAll(selector)].map((n) => n.getBoundingClientRect());
    return { frame: { left: frame.left, top: frame.top, right: frame.right, bottom: frame.bottom }, nodes: nodes.map((r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom, height: r.height })) };
  }, selector);
}

const inside = (f, r) => r.left >= f.left - 0.5 && r.right <= f.right + 0.5 && r.top >= f.top - 0.5 && r.bottom <= f.bottom + 0.5;
const viewBox = (page) => page.getByTestId('dep-graph').getAttribute('viewBox').then((v) => v.split(' ').map(Number));
const scale = (page) => page.getByTestId('dep-graph').getAttribute('data-scale').then(Number);

async function openGraph(app, sample) {
  await app.page.goto(`${app.origin}/`);
  await app.page.getByTestId(`sample-${sample}`).click();
  await app.page.getByTestId('analysis-ready').waitFor();
  await app.page.getByTestId('tab-graph').click();
  await app.page.locator('.graph[data-scale]').waitFor();
}

test('the 3,000-node build opens on its critical path, readable, and zooms and pans', async () => {
  const app = await openApp();
  try {
    await app.page.setViewportSize({ width: 1400, height: 900 });
    await openGraph(app, 'distbuild');
    // Opens on the path: its first steps are on screen, on one line, with
    // labels of 8 px and more.
    const { frame, nodes } = await boxes(app.page, '.graph g.node.on-path rect');
    const shown = nodes.filter((r) => inside(frame, r));
    assert.ok(shown.length >= 3, `path nodes on screen: ${shown.length} of ${nodes.length}`);
    assert.ok(new Set(shown.map((r) => Math.round(r.top))).size === 1, 'the path runs along one line');
    const label = await app.page.locator('.graph g.node.on-path text').first().evaluate((t) => t.getBoundingClientRect().height);
    assert.ok(label >= 8, `label height ${label}px`);
    await app.page.screenshot({ path: '/tmp/longpole-graph-open.png' });

    // The wheel zooms around the cursor: the point under it stays put.
    const s0 = await scale(app.page);
    const [x0, y0] = await viewBox(app.page);
    const at = { x: frame.left + 300, y: frame.top + 200 };
    await app.page.mouse.move(at.x, at.y);
    await app.page.mouse.wheel(0, -200);
    await app.page.waitForFunction((s) => Number(document.querySelector('.graph').dataset.scale) > s, s0);
    const s1 = await scale(app.page);
    const [x1, y1] = await viewBox(app.page);
    assert.ok(Math.abs(x0 + 300 / s0 - (x1 + 300 / s1)) < 1 && Math.abs(y0 + 200 / s0 - (y1 + 200 / s1)) < 1);

    // A drag pans by as much as the pointer moved.
    await app.page.mouse.move(at.x, at.y);
    await app.page.mouse.down();
    await app.page.mouse.move(at.x - 100, at.y - 40, { steps: 4 });
    await app.page.mouse.up();
    const [x2, y2] = await viewBox(app.page);
    assert.ok(Math.abs(x2 - (x1 + 100 / s1)) < 1 && Math.abs(y2 - (y1 + 40 / s1)) < 1, `${[x1, y1]} → ${[x2, y2]}`);

    // W zooms in, S out, D pans right.
    await app.page.keyboard.press('w');
    await app.page.waitForFunction((s) => Number(document.querySelector('.graph').dataset.scale) > s * 1.1, s1, { timeout: 5000 });
    await app.page.keyboard.press('s');
    await app.page.waitForFunction((s) => Math.abs(Number(document.querySelector('.graph').dataset.scale) - s) < 1e-3, s1, { timeout: 5000 });
    const [x3] = await viewBox(app.page);
    await app.page.keyboard.press('d');
    await app.page.waitForFunction((x) => Number(document.querySelector('.graph').getAttribute('viewBox').split(' ')[0]) > x + 1, x3, { timeout: 5000 });

    // Fit shows every node.
    await app.page.getByTestId('graph-fit').click();
    const all = await boxes(app.page, '.graph .node');
    assert.ok(all.nodes.every((r) => inside(all.frame, r)), 'every node inside the frame');

    // A double click fits a node; a path step picked in the left panel is centred.
    await app.page.locator('.path-list .step').nth(4).click();
    const sel = await boxes(app.page, '.graph g.node.selected rect');
    const c = sel.nodes[0];
    assert.ok(Math.abs((c.left + c.right) / 2 - (sel.frame.left + sel.frame.right) / 2) < 2, 'selected node centred');
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});

test('the MonetDB plan opens on its path, and Fit leaves no column cut off', async () => {
  const app = await openApp();
  try {
    await app.page.setViewportSize({ width: 1400, height: 900 });
    await openGraph(app, 'monetdb');
    const { frame, nodes } = await boxes(app.page, '.graph g.node rect');
    assert.ok(nodes.filter((r) => inside(frame, r)).length >= 20, 'nodes on screen, not empty space');
    await app.page.getByTestId('graph-fit').click();
    const all = await boxes(app.page, '.graph .node');
    assert.ok(all.nodes.every((r) => inside(all.frame, r)));
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
