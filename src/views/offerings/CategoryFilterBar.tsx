import type { OfferingCategory } from '../../contract/offerings.ts';
import { ALL_CATEGORIES } from '../../machines/offeringsCatalogue.machine.ts';
import { Radio, RadioGroup } from '../../widgets/RadioGroup.tsx';

function AllCategoriesImage() {
  return (
    <svg className="lc-category-tile__image" viewBox="0 0 40 40" width="40" height="40" aria-hidden="true" focusable="false">
      <circle cx="20" cy="20" r="20" fill="var(--lc-color-primary-tint)" />
      <g fill="var(--lc-color-primary)">
        <rect x="11" y="11" width="8" height="8" rx="2" />
        <rect x="21" y="11" width="8" height="8" rx="2" />
        <rect x="11" y="21" width="8" height="8" rx="2" />
        <rect x="21" y="21" width="8" height="8" rx="2" />
      </g>
    </svg>
  );
}

function CategoryTile({ value, name, imageUrl }: { value: string; name: string; imageUrl?: string }) {
  return (
    <Radio value={value} variant="custom" className="lc-category-tile">
      {imageUrl ? (
        // The tile's name says what the picture shows.
        <img className="lc-category-tile__image" src={imageUrl} alt="" width={40} height={40} />
      ) : (
        <AllCategoriesImage />
      )}
      <span className="lc-category-tile__name">{name}</span>
    </Radio>
  );
}

export interface CategoryFilterBarProps {
  categories: OfferingCategory[];
  selected: string;
  onSelect: (category: string) => void;
}

/** SPEC §2: one radio tile per category, with its image and name, after 'All'. Arrow keys move between tiles. */
export function CategoryFilterBar({ categories, selected, onSelect }: CategoryFilterBarProps) {
  return (
    <RadioGroup label="Filter by category" isLabelHidden className="lc-category-filter" orientation="horizontal" value={selected}
      onChange={onSelect}>
      <div className="lc-category-filter__tiles">
        <CategoryTile value={ALL_CATEGORIES} name={ALL_CATEGORIES} />
        {categories.map((category) => (
          <CategoryTile key={category.external_id} value={category.name} name={category.name} imageUrl={category.image_url} />
        ))}
      </div>
    </RadioGroup>
  );
}
