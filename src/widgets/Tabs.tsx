import { Children, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs as AriaTabs, type Key } from 'react-aria-components';
import './Tabs.css';

/** SPEC §9: a swipe counts once the horizontal movement exceeds 50 px. */
export const TAB_SWIPE_THRESHOLD_PX = 50;

/** SPEC §4: a tab's id is its title with every non-word character replaced by an underscore. */
export function tabId(title: string): string {
  return title.replace(/\W/g, '_');
}

export interface TabsProps {
  titles: string[];
  /** One panel per title, in order, or a function drawing the panel of a title. */
  children: ReactNode | ((title: string, index: number) => ReactNode);
  /** Names the tab list for screen readers. */
  label?: string;
  /** The selected tab id (see tabId); the first tab when neither this nor the user chose one. */
  selectedKey?: string;
  onSelectionChange?: (key: string) => void;
  className?: string;
}

/**
 * Tabs with arrow-key navigation; on touch screens a swipe right over the panel moves to the next tab and a swipe left
 * to the previous one, stopping at the ends (SPEC §4).
 */
export function Tabs({ titles, children, label, selectedKey, onSelectionChange, className }: TabsProps) {
  const ids = titles.map(tabId);
  const [uncontrolledKey, setUncontrolledKey] = useState<string | undefined>(undefined);
  const currentKey = selectedKey ?? uncontrolledKey ?? ids[0];
  const swipeStart = useRef<{ x: number; y: number } | null>(null);
  const panels = typeof children === 'function' ? null : Children.toArray(children);

  const select = (key: string) => {
    if (selectedKey === undefined) setUncontrolledKey(key);
    onSelectionChange?.(key);
  };

  const onPointerDown = (event: PointerEvent) => {
    swipeStart.current = { x: event.clientX, y: event.clientY };
  };
  const onPointerUp = (event: PointerEvent) => {
    const start = swipeStart.current;
    swipeStart.current = null;
    if (!start) return;
    const deltaX = event.clientX - start.x;
    // Mostly-vertical movements are scrolls, not swipes.
    if (Math.abs(deltaX) <= TAB_SWIPE_THRESHOLD_PX || Math.abs(deltaX) < Math.abs(event.clientY - start.y)) return;
    const nextIndex = ids.indexOf(currentKey) + (deltaX > 0 ? 1 : -1);
    if (nextIndex >= 0 && nextIndex < ids.length) select(ids[nextIndex]);
  };

  return (
    <AriaTabs selectedKey={currentKey} onSelectionChange={(key: Key) => select(String(key))}
      className={['lc-tabs', className].filter(Boolean).join(' ')}>
      <TabList aria-label={label} className="lc-tabs__list">
        {titles.map((title, index) => (
          <Tab key={ids[index]} id={ids[index]} className="lc-tabs__tab">{title}</Tab>
        ))}
      </TabList>
      <div className="lc-tabs__panels" onPointerDown={onPointerDown} onPointerUp={onPointerUp}
        onPointerCancel={() => { swipeStart.current = null; }}>
        {titles.map((title, index) => (
          <TabPanel key={ids[index]} id={ids[index]} className="lc-tabs__panel">
            {panels ? panels[index] : (children as (title: string, index: number) => ReactNode)(title, index)}
          </TabPanel>
        ))}
      </div>
    </AriaTabs>
  );
}
