import { Children, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import {
  Tab as AriaTab,
  TabList as AriaTabList,
  TabPanel as AriaTabPanel,
  Tabs as AriaTabs,
  type Key,
  type TabListProps,
  type TabPanelProps,
  type TabProps,
  type TabsProps as AriaTabsProps,
} from 'react-aria-components';
import { kitClass } from './kitClass.ts';
import { checkOption } from './optionCheck.ts';
import './Tabs.css';

export const TAB_VARIANTS = ['line', 'segmented'] as const;
export type TabVariant = (typeof TAB_VARIANTS)[number];

export interface TabGroupProps extends AriaTabsProps {
  /** line: titles over an underline (default); segmented: a grid of bordered buttons, for a few short choices. */
  variant?: TabVariant;
}

/**
 * The parts of a tab set, for tabs whose titles are more than text or whose ids are not their titles (Tabs below draws
 * the common case from a list of titles). Arrow keys move between the tabs of a TabList.
 */
export function TabGroup({ variant = 'line', ...props }: TabGroupProps) {
  checkOption('TabGroup', 'variant', variant, TAB_VARIANTS);
  return <AriaTabs {...props} className={kitClass(`lc-tabs lc-tabs--${variant}`, props.className)} />;
}

export function TabList<T extends object>(props: TabListProps<T>) {
  return <AriaTabList {...props} className={kitClass('lc-tabs__list', props.className)} />;
}

export function Tab(props: TabProps) {
  return <AriaTab {...props} className={kitClass('lc-tabs__tab', props.className)} />;
}

export function TabPanel(props: TabPanelProps) {
  return <AriaTabPanel {...props} className={kitClass('lc-tabs__panel', props.className)} />;
}

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
    <TabGroup selectedKey={currentKey} onSelectionChange={(key: Key) => select(String(key))} className={className}>
      <TabList aria-label={label}>
        {titles.map((title, index) => (
          <Tab key={ids[index]} id={ids[index]}>{title}</Tab>
        ))}
      </TabList>
      <div className="lc-tabs__panels" onPointerDown={onPointerDown} onPointerUp={onPointerUp}
        onPointerCancel={() => { swipeStart.current = null; }}>
        {titles.map((title, index) => (
          <TabPanel key={ids[index]} id={ids[index]}>
            {panels ? panels[index] : (children as (title: string, index: number) => ReactNode)(title, index)}
          </TabPanel>
        ))}
      </div>
    </TabGroup>
  );
}
