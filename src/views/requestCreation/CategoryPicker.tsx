import type { SurveyCategory } from '../../contract/surveys.ts';
import { CategoryIcon } from '../../widgets/CategoryIcon.tsx';
import { PlainButton } from '../../widgets/Pressable.tsx';

export interface CategoryPickerProps {
  /** SPEC §2: the drawer mode's prompt. */
  prompt: string;
  categories: readonly SurveyCategory[];
  onPick: (category: SurveyCategory) => void;
}

/** The request categories as tiles (SPEC §2 category drawer). */
export function CategoryPicker({ prompt, categories, onPick }: CategoryPickerProps) {
  return (
    <div className="lc-category-picker">
      <p className="lc-category-picker__prompt" id="category-picker-prompt">{prompt}</p>
      <ul className="lc-category-picker__list lc-tile-grid" aria-labelledby="category-picker-prompt">
        {categories.map((category) => (
          <li key={category.id}>
            <PlainButton className="lc-category-picker__tile" onPress={() => onPick(category)}>
              <span className="lc-category-picker__icon">
                <CategoryIcon category={category.name} size={28} />
              </span>
              <span>{category.name}</span>
            </PlainButton>
          </li>
        ))}
      </ul>
    </div>
  );
}
