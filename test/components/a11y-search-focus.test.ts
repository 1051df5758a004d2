/**
 * The search modal's focus trap (APG dialog and combobox patterns): Tab and Shift+Tab reach only
 * what Tab can reach, never the listbox's options, and wrap inside the dialog.
 */
import { expect } from '@esm-bundle/chai';
import { sendKeys } from '@web/test-runner-commands';
import { useMockApi } from '../client/support.js';
import { accessibilityTree, cleanUp, findAll, summarisedSearch, until } from './a11y-support.js';

useMockApi();
afterEach(cleanUp);

async function shiftTab(): Promise<void> {
  await sendKeys({ down: 'Shift' });
  await sendKeys({ press: 'Tab' });
  await sendKeys({ up: 'Shift' });
}

async function openWithResultsAndSummary() {
  const search = await summarisedSearch();
  await until(() => expect(search.$$('[role="option"]')).to.have.length(2));
  return search;
}

describe('a11y: the search modal’s focus trap', () => {
  it('Shift+Tab from the input never lands on a result; typing goes on working', async () => {
    const search = await openWithResultsAndSummary();
    await shiftTab();
    const landed = search.active()!;
    expect(landed.getAttribute('role'), landed.outerHTML).to.not.equal('option');
    expect(search.$('.panel')!.contains(landed)).to.equal(true);
    const [focused] = findAll(await accessibilityTree(), (node) => node.focused === true);
    expect(focused?.role).to.not.equal('option');

    await sendKeys({ press: 'Tab' });
    expect(search.active()).to.equal(search.input());
    await sendKeys({ type: ' e42' });
    expect(search.input().value).to.equal('ignition e42');
    expect(search.input().getAttribute('role')).to.equal('combobox');
  });

  it('Tab goes through the field’s buttons and the summary’s sources, then wraps to the input inside the dialog', async () => {
    const search = await openWithResultsAndSummary();
    const visited: HTMLElement[] = [];
    for (let press = 0; press < 6; press++) {
      await sendKeys({ press: 'Tab' });
      visited.push(search.active()!);
    }
    for (const element of visited) {
      expect(search.$('.panel')!.contains(element), `${element.outerHTML} is inside the dialog`).to.equal(true);
      expect(element.getAttribute('role')).to.not.equal('option');
    }
    const sources = search.$$('.summary-sources a');
    const last = visited.indexOf(sources.at(-1)!);
    expect(last, 'the last summary source is reached').to.be.greaterThan(-1);
    expect(visited[last + 1], 'Tab past it wraps to the input').to.equal(search.input());
  });
});
