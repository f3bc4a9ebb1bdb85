// The deterministic sample mall of `--seed N`: a category tree of realistic departments (up to
// three depths), a few hundred products with names, prices, tags and dates drawn from a PRNG
// seeded with N, their placements in regular, recommended and new sections, products in the main
// groups and a few bundles. The same N gives the same mall, byte for byte; it is written through
// the ordinary services, so every integrity rule holds for seeded data too.
import type { Catalogue } from '../catalogue/catalogue.js';
import { seededRandom } from '../support/seeded-random.js';

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

/** How large the seeded mall is. */
export const seedProductCount = 300;
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
      const root = categories.create(1, { category_name: department });
      for (const [section, nouns] of Object.entries(sections)) {
        const child = categories.create(1, { category_name: section, parent_category_no: root.category_no });
        const sub = categories.create(1, {
          category_name: `${section} Essentials`,
          parent_category_no: child.category_no,
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
    for (let i = 0; i < 5; i++) {
      const parts = [...new Set([pick(created), pick(created)])];
      products.create(
        1,
        {
          product_name: `Gift Set ${i + 1}`,
          ...shipping,
          display: 'T',
          selling: 'T',
          bundle_product_components: parts.map((product_no) => ({ product_no, purchase_quantity: 1 })),
          bundle_product_sales: { discount_value: '10.00', discount_type: 'P' },
        },
        true,
        seedEpoch + (seedProductCount + i) * 3_600_000,
      );
    }
  });
}
