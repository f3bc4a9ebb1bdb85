// Test support: the accessibility violations axe reports inside Redoc's own markup that neither
// its options nor its theme can change, shared by the reference scans (desktop and phone).
import type { KnownViolation } from './browser.js';

/**
 * Violations inside Redoc's own markup that neither its options nor its theme can change.
 * - `label-content-name-mismatch` on the sidebar's tag-group items (`li[data-item-id="group/…"]`):
 *   Redoc renders a group as one `menuitem` whose `aria-label` is the group name but whose content
 *   also holds the nested menu of its tags and operations, so the visible text necessarily exceeds
 *   the name. The group names come from our `x-tagGroups` and are read out correctly.
 */
export const redocKnownViolations: KnownViolation[] = [
  {
    rule: 'label-content-name-mismatch',
    target: /^li\[data-item-id="group\/[^"]+"\]$/,
    because: "Redoc's tag-group menuitem contains its submenu",
  },
];
