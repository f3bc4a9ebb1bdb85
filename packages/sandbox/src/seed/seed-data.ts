// The deterministic sample mall of `--seed N`: a category tree up to three depths, a few hundred
// products (names, prices, tags, codes, options, dates drawn from a PRNG seeded with N, so every
// admin filter selects some and not others), their placements, main groups and a few bundles. The
// same N gives the same mall; it is written through the ordinary services, so integrity holds.
import type { Catalogue } from '../catalogue/catalogue.js';
import { drawsFor, seededRandom } from '../support/seeded-random.js';

/** Departments → sections → sub-sections, with the nouns of their products. */
const departments: Record<string, Record<string, string[]>> = {
  "Women's Clothing": {
    Knitwear: ['Cardigan', 'Crew-neck Knit', 'Turtleneck'],
    Dresses: ['Midi Dress', 'Shirt Dress'],
    Trousers: ['Wide Trousers', 'Slacks'],
  },
  "Men's Clothing": {
    Shirts: ['Linen Shirt', 'Oxford Shirt'],
    Outerwear: ['Field Jacket', 'Wool Coat'],
    Denim: ['Straight Jeans', 'Denim Jacket'],
  },
  'Home & Living': {
    Bedding: ['Duvet Cover Set', 'Pillowcase Pair'],
    'Table Linens': ['Table Runner', 'Linen Napkins'],
    Storage: ['Rattan Basket', 'Cotton Storage Bin'],
  },
  Kitchen: {
    Tableware: ['Stoneware Mug Set', 'Dinner Plate'],
    Cookware: ['Cast Iron Skillet', 'Enamel Pot'],
  },
  Beauty: { Skincare: ['Hydrating Toner', 'Night Cream'], 'Hair Care': ['Argan Shampoo', 'Hair Oil'] },
  Kids: { 'Baby Clothing': ['Organic Bodysuit', 'Knit Bonnet'], Toys: ['Wooden Blocks', 'Plush Rabbit'] },
};
const adjectives = [
  'Oversized',
  'Washed',
  'Organic',
  'Classic',
  'Relaxed',
  'Soft',
  'Everyday',
  'Premium',
  'Light',
  'Vintage',
  'Handmade',
  'Slim',
];
const materials = ['Cotton', 'Linen', 'Wool', 'Cashmere', 'Stoneware', 'Bamboo', 'Oak', 'Silk'];
const tags = ['new', 'best', 'gift', 'sale', 'eco', 'limited', 'summer', 'winter'];
/** The codes seeded products are told apart by (brands, makers, suppliers, trends, classes). */
const codes = (prefix: string) => ['A', 'B', 'C', 'D'].map((letter) => `${prefix}000000${letter}`);
const colours = ['Black', 'Navy', 'Beige', 'Ivory', 'Grey'];
const careNotes = ['Hand wash only', 'Dry clean', 'Machine wash'];

/**
 * The attributes of seeded product `index` beyond its name, price and category, drawn apart from
 * the main sequence (so adding one leaves the others as they were).
 */
function variety(seed: number, index: number, name: string): Record<string, unknown> {
  const draw = drawsFor(`${seed}|product|${index}`);
  const [, material, ...noun] = name.split(' ');
  const withOptions = draw.chance(0.4);
  const abroad = draw.chance(0.3);
  return {
    eng_product_name: name,
    supply_product_name: `${material} ${noun.join(' ')} lot ${1 + draw.below(9)}`,
    internal_product_name: `${noun.join(' ')} ${draw.pick(['spring', 'autumn'])} line`,
    model_name: `${(noun[0] ?? 'X').slice(0, 3).toUpperCase()}-${100 + draw.below(20)}`,
    brand_code: draw.pick(codes('B')),
    manufacturer_code: draw.pick(codes('M')),
    supplier_code: draw.pick(codes('S')),
    trend_code: draw.pick(codes('T')),
    classification_code: draw.pick(codes('C')),
    product_condition: draw.pick(['N', 'N', 'N', 'R', 'U', 'E']),
    product_weight: draw.pick(['0.50', '1.00', '1.50', '2.25']),
    market_sync: draw.chance(0.3) ? 'T' : 'F',
    approve_status: draw.pick(['', 'N', 'C']),
    ...(abroad
      ? {
          origin_classification: 'T',
          origin_place_no: 1800,
          origin_place_value: draw.pick(['Portugal', 'Vietnam']),
        }
      : {}),
    ...(draw.chance(0.5)
      ? { additional_information: [{ key: 'custom_option1', name: 'Care', value: draw.pick(careNotes) }] }
      : {}),
    ...(withOptions
      ? {
          options: [
            { name: 'Color', value: draw.some(colours, 3) },
            { name: 'Size', value: ['S', 'M', 'L'].slice(0, 1 + draw.below(3)) },
          ],
        }
      : {}),
  };
}

/** How large the seeded mall is. */
export const seedProductCount = 300;
/** How many bundles of those products it sells. */
export const seedBundleCount = 6;
/** The first creation date of seeded products (2026-01-01T00:00:00+09:00). */
const seedEpoch = Date.parse('2026-01-01T00:00:00+09:00');

/** Fills an empty store with the sample mall of `seed`; does nothing when products exist. */
export function seedSandbox(seed: number, catalogue: Catalogue): void {
  const { store, categories, products, placements } = catalogue;
  if (store.size('product') > 0 || store.size('category') > 0) return;
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  // A global-edition mall ships everything abroad: export scope with its customs codes.
  const shipping = products.settings.globalEdition
    ? {
        shipping_fee_by_product: 'T',
        shipping_scope: 'C',
        hscode: '6109100000',
        clearance_category_code: 'APPAREL1',
      }
    : {};
  store.transaction(() => {
    const leaves: { categoryNo: number; nouns: string[] }[] = [];
    for (const [department, sections] of Object.entries(departments)) {
      const shown = drawsFor(`${seed}|category|${department}`);
      const root = categories.create(1, {
        category_name: department,
        use_main: shown.chance(0.5) ? 'T' : 'F',
      });
      for (const [section, nouns] of Object.entries(sections)) {
        const child = categories.create(1, {
          category_name: section,
          parent_category_no: root.category_no,
          use_display: shown.chance(0.8) ? 'T' : 'F',
        });
        const sub = categories.create(1, {
          category_name: `${section} Essentials`,
          parent_category_no: child.category_no,
          use_main: shown.chance(0.3) ? 'T' : 'F',
        });
        leaves.push({ categoryNo: child.category_no, nouns }, { categoryNo: sub.category_no, nouns });
      }
    }
    const created: number[] = [];
    for (let i = 0; i < seedProductCount; i++) {
      const leaf = pick(leaves);
      const name = `${pick(adjectives)} ${pick(materials)} ${pick(leaf.nouns)}`;
      const supply = 5_000 + Math.floor(random() * 60) * 1_000;
      const price = Math.round((supply * (1.4 + random())) / 100) * 100;
      const product = products.create(
        1,
        {
          product_name: name,
          ...variety(seed, i, name),
          ...shipping,
          supply_price: supply.toFixed(2),
          price: price.toFixed(2),
          retail_price: (Math.round((price * 1.15) / 100) * 100).toFixed(2),
          display: random() < 0.9 ? 'T' : 'F',
          selling: random() < 0.92 ? 'T' : 'F',
          product_tag: [pick(tags), pick(tags)].filter((t, index, all) => all.indexOf(t) === index),
          custom_product_code: `SB-${String(i + 1).padStart(5, '0')}`,
          add_category_no: [
            {
              category_no: leaf.categoryNo,
              recommend: random() < 0.2 ? 'T' : 'F',
              new: random() < 0.2 ? 'T' : 'F',
            },
          ],
        },
        false,
        seedEpoch + i * 3_600_000 + Math.floor(random() * 3_000_000),
      );
      created.push(product.product_no);
    }
    for (const group of placements.mains()) {
      const chosen = [...new Set(Array.from({ length: 8 }, () => pick(created)))];
      placements.addToMain(1, Number(group.display_group), chosen);
    }
    for (let i = 0; i < seedBundleCount; i++) {
      const parts = [...new Set([pick(created), pick(created)])];
      const name = `${adjectives[i % adjectives.length]} ${materials[i % materials.length]} Gift Set`;
      const { options: _options, ...traits } = variety(seed, seedProductCount + i, name);
      const { additional_information: information, ...plain } = traits;
      products.create(
        1,
        {
          product_name: name,
          ...plain,
          ...(i % 2 === 0
            ? {
                additional_information: information ?? [
                  { key: 'custom_option1', name: 'Care', value: careNotes[i % 3] },
                ],
              }
            : {}),
          ...shipping,
          display: i === 3 ? 'F' : 'T',
          selling: i === 4 ? 'F' : 'T',
          product_tag: [tags[i % tags.length]],
          custom_product_code: `SB-GIFT-${i + 1}`,
          // Bundles 1, 3 and 5 sit in a section, that section's sub-section and the next section.
          ...(i % 2 === 1
            ? {
                add_category_no: [{ category_no: leaves[(i - 1) / 2]?.categoryNo, recommend: 'F', new: 'F' }],
              }
            : {}),
          bundle_product_components: parts.map((product_no) => ({ product_no, purchase_quantity: 1 })),
          bundle_product_sales: { discount_value: `${5 + i * 5}.00`, discount_type: 'P' },
        },
        true,
        seedEpoch + (seedProductCount + i * 24) * 3_600_000,
      );
    }
    // Every other shop of the mall places the products as the default shop does.
    for (let shopNo = 2; shopNo <= products.settings.shops; shopNo++) {
      for (const { record } of products.all())
        for (const placed of record.category as { category_no: number; recommend: string; new: string }[]) {
          const groups = [1, ...(placed.recommend === 'T' ? [2] : []), ...(placed.new === 'T' ? [3] : [])];
          for (const group of groups)
            placements.addToCategory(shopNo, placed.category_no, group, [record.product_no]);
        }
      for (const group of placements.mains()) {
        const groupNo = Number(group.display_group);
        const shown = placements.listMainProducts(groupNo, 1).map((p) => Number(p.product_no));
        placements.addToMain(shopNo, groupNo, shown);
      }
    }
  });
}
