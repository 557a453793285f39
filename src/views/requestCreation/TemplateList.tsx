import type { SurveyTemplate } from '../../machines/survey.machine.ts';
import { PlainButton } from '../../widgets/Pressable.tsx';
import './TemplateList.css';

export interface TemplateListProps {
  templates: readonly SurveyTemplate[];
  /** Begins the template's survey. */
  onPick: (template: SurveyTemplate) => void;
  /** Names the list for screen readers, e.g. 'Pet requests'. */
  label: string;
  className?: string;
}

function ChevronIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round"
      strokeLinejoin="round" aria-hidden="true" focusable="false" className="lc-template-list__chevron">
      <path d="M9 6l6 6-6 6" />
    </svg>
  );
}

/** Request templates, each a button that begins its survey (category page, drawer, dashboard suggestions). */
export function TemplateList({ templates, onPick, label, className }: TemplateListProps) {
  return (
    <ul className={['lc-template-list', className].filter(Boolean).join(' ')} aria-label={label}>
      {templates.map((template) => (
        <li key={template.id}>
          <PlainButton className="lc-template-list__item" onPress={() => onPick({ id: template.id, name: template.name })}>
            <span>{template.name}</span>
            <ChevronIcon />
          </PlainButton>
        </li>
      ))}
    </ul>
  );
}
