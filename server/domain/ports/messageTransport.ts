/** What a transport is asked to deliver. */
export interface OutgoingMessage {
  to: string;
  subject: string | null;
  text: string;
}

/** Delivers one message (an e-mail or an SMS) or throws; the outbox worker retries what throws. */
export interface MessageTransport {
  send(message: OutgoingMessage): Promise<void>;
}
