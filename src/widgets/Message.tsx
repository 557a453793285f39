import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button as AriaButton } from 'react-aria-components';
import { Button } from './Button.tsx';
import { checkOption } from './optionCheck.ts';
import { CloseIcon, ErrorIcon, InfoIcon, SuccessIcon, WarningIcon } from './icons.tsx';
import './Message.css';

export const MESSAGE_SEVERITIES = ['info', 'success', 'warning', 'error'] as const;
export type MessageSeverity = (typeof MESSAGE_SEVERITIES)[number];

export interface MessageProps {
  /** SPEC §9: default alert severity info. */
  severity?: MessageSeverity;
  title?: ReactNode;
  children?: ReactNode;
  /** When given, a 'Close' button is shown; also called when the lifetime ends. */
  onClose?: () => void;
  /** Milliseconds after which the message disappears (and onClose is called). */
  lifetime?: number;
  className?: string;
}

const SEVERITY_ICONS = { info: InfoIcon, success: SuccessIcon, warning: WarningIcon, error: ErrorIcon } as const;

/**
 * An inline alert. Errors and warnings interrupt screen readers (role alert); info and success are polite (role status).
 * It stays until closed or until its lifetime ends; to show it again, remount it (e.g. with a new key).
 */
export function Message({ severity = 'info', title, children, onClose, lifetime, className }: MessageProps) {
  checkOption('Message', 'severity', severity, MESSAGE_SEVERITIES);
  const [isClosed, setIsClosed] = useState(false);
  // Kept in a ref so a parent re-rendering with a new callback does not restart the lifetime timer.
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    if (lifetime === undefined) return;
    const timer = setTimeout(() => {
      setIsClosed(true);
      onCloseRef.current?.();
    }, lifetime);
    return () => clearTimeout(timer);
  }, [lifetime]);

  if (isClosed) return null;
  const Icon = SEVERITY_ICONS[severity] ?? InfoIcon;
  const close = () => {
    setIsClosed(true);
    onClose?.();
  };
  return (
    <div role={severity === 'error' || severity === 'warning' ? 'alert' : 'status'}
      className={['lc-message', `lc-message--${severity}`, className].filter(Boolean).join(' ')}>
      <Icon className="lc-message__icon" />
      <div className="lc-message__body">
        {title && <p className="lc-message__title">{title}</p>}
        {children && <div className="lc-message__text">{children}</div>}
      </div>
      {onClose && (
        <AriaButton aria-label="Close" className="lc-close-button lc-message__close" onPress={close}>
          <CloseIcon size={18} />
        </AriaButton>
      )}
    </div>
  );
}

/** A load that failed and may succeed if asked again: the error, and a 'Try again' button that asks. */
export function RetryMessage({ children, onRetry }: { children: ReactNode; onRetry: () => void }) {
  return (
    <Message severity="error">
      <p>{children}</p>
      <Button variant="secondary" onPress={onRetry}>
        Try again
      </Button>
    </Message>
  );
}
