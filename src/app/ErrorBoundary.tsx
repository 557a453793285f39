import { Component, type ReactNode } from 'react';
import { reportError } from '../services/errorReporting.ts';

export interface ErrorBoundaryProps {
  /** The error slot: shown instead of the content after an error. */
  fallback?: ReactNode;
  /** Reported with the error: the component that holds the boundary, and its feature. */
  component?: string;
  feature?: string;
  /** When this value changes (e.g. the location's pathname), the boundary starts afresh. */
  resetKey?: unknown;
  children?: ReactNode;
}

interface ErrorBoundaryState {
  hasError: boolean;
  /** Times the content has been rendered again after an error since the last reset. */
  retries: number;
  resetKey: unknown;
}

/** After this many renewed renders that fail again, the content is given up for a message. */
const MAX_RETRIES = 1;
/** SPEC §8 generic fallback. */
export const ERROR_BOUNDARY_MESSAGE = 'An unexpected error occurred';

/**
 * SPEC §4 "Error boundary": after an error it shows the error slot if one is given, otherwise it keeps rendering
 * the content (once more: content that fails again is replaced by a polite message, so an error cannot loop).
 * Every error is reported with the component name and feature, except 401s (see reportError).
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  state: ErrorBoundaryState = { hasError: false, retries: 0, resetKey: this.props.resetKey };

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: ErrorBoundaryState): Partial<ErrorBoundaryState> | null {
    return Object.is(props.resetKey, state.resetKey) ? null : { hasError: false, retries: 0, resetKey: props.resetKey };
  }

  static getDerivedStateFromError(): Partial<ErrorBoundaryState> {
    return { hasError: true };
  }

  componentDidCatch(error: unknown) {
    const { component, feature, fallback } = this.props;
    void reportError(error, { component, feature });
    if (fallback === undefined && this.state.retries < MAX_RETRIES) {
      this.setState((state) => ({ hasError: false, retries: state.retries + 1 }));
    }
  }

  render() {
    if (!this.state.hasError) return this.props.children;
    if (this.props.fallback !== undefined) return this.props.fallback;
    // Between the failed render and the renewed one nothing shows; after the last retry, the message.
    return this.state.retries >= MAX_RETRIES ? (
      <p role="alert" className="lc-error-boundary">
        {ERROR_BOUNDARY_MESSAGE}
      </p>
    ) : null;
  }
}
