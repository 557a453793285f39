/** SPEC §4: shown while the next question takes longer than 250 ms, as a chat assistant "typing". */
export function TypingIndicator() {
  return (
    <div className="lc-typing" role="status">
      <span className="lc-visually-hidden">The assistant is typing</span>
      <span className="lc-typing__dot" aria-hidden="true" />
      <span className="lc-typing__dot" aria-hidden="true" />
      <span className="lc-typing__dot" aria-hidden="true" />
    </div>
  );
}
