import type { ReactNode } from 'react';
import {
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DatePicker as AriaDatePicker,
  type DatePickerProps as AriaDatePickerProps,
  DateSegment,
  type DateValue,
  Dialog,
  Group,
  Heading,
  Popover,
} from 'react-aria-components';
import { FieldDescription, FieldErrorMessage, FieldLabel } from './Field.tsx';
import { kitClass } from './kitClass.ts';
import './DatePicker.css';

export interface DatePickerProps<T extends DateValue> extends AriaDatePickerProps<T> {
  label: ReactNode;
  description?: ReactNode;
  /** Puts the field in an invalid state and shows the message beneath it with an icon. */
  errorMessage?: string;
}

/**
 * A date, or a date and time (granularity 'hour' or 'minute', with a CalendarDateTime or ZonedDateTime value from
 * @internationalized/date): typed segment by segment in the user's locale, or picked from a calendar.
 */
export function DatePicker<T extends DateValue>({ label, description, errorMessage, ...props }: DatePickerProps<T>) {
  return (
    <AriaDatePicker {...props} isInvalid={props.isInvalid ?? Boolean(errorMessage)}
      validationBehavior={props.validationBehavior ?? 'aria'} className={kitClass('lc-field lc-date-picker', props.className)}>
      <FieldLabel isOptional={!props.isRequired}>{label}</FieldLabel>
      <Group className="lc-date-picker__group">
        <DateInput className="lc-date-picker__input">
          {(segment) => <DateSegment segment={segment} className="lc-date-picker__segment" />}
        </DateInput>
        <Button className="lc-date-picker__button">
          <span aria-hidden="true">▾</span>
        </Button>
      </Group>
      <FieldDescription>{description}</FieldDescription>
      <FieldErrorMessage>{errorMessage}</FieldErrorMessage>
      <Popover className="lc-date-picker__popover">
        <Dialog className="lc-calendar-dialog">
          <Calendar className="lc-calendar">
            <header className="lc-calendar__header">
              <Button slot="previous" className="lc-calendar__nav">
                <span aria-hidden="true">‹</span>
              </Button>
              <Heading className="lc-calendar__title" />
              <Button slot="next" className="lc-calendar__nav">
                <span aria-hidden="true">›</span>
              </Button>
            </header>
            <CalendarGrid className="lc-calendar__grid">
              {(date) => <CalendarCell date={date} className="lc-calendar__cell" />}
            </CalendarGrid>
          </Calendar>
        </Dialog>
      </Popover>
    </AriaDatePicker>
  );
}
