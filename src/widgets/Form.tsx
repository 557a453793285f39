import { Form as AriaForm, type FormProps } from 'react-aria-components';

/**
 * A form whose fields show the app's validation messages (the statecharts', in SPEC's words) rather than the
 * browser's: validationBehavior 'aria' unless told otherwise. Server errors go to its fields through validationErrors.
 */
export function Form(props: FormProps) {
  return <AriaForm {...props} validationBehavior={props.validationBehavior ?? 'aria'} />;
}
