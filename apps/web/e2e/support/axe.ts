import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * Runs axe on the page as it is now and throws on every serious or critical violation, listing
 * each rule with the elements it failed on so the message alone says what to fix. It runs
 * axe.run in the page ("legacy mode"): the default runs axe in each frame and merges the parts
 * in a blank page it opens for every scan, which serves cross-origin frames (the app has none)
 * and cost about half of each scan's time.
 */
export async function expectNoSeriousA11yViolations(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).setLegacyMode().analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  if (serious.length === 0) return;
  const report = serious
    .map((violation) => {
      const nodes = violation.nodes
        .slice(0, 8)
        .map(
          (node) =>
            `      - ${node.target.join(' ')}\n        ${node.failureSummary?.replace(/\n/g, '\n        ')}`,
        )
        .join('\n');
      const more =
        violation.nodes.length > 8 ? `\n      … and ${violation.nodes.length - 8} more` : '';
      return `  [${violation.impact}] ${violation.id}: ${violation.help}\n    ${violation.helpUrl}\n${nodes}${more}`;
    })
    .join('\n');
  throw new Error(
    `${label} (${page.url()}): ${serious.length} serious or critical accessibility violation(s):\n${report}`,
  );
}
