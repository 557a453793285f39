import { useSelector } from '@xstate/react';
import type { Actor } from 'xstate';
import { RATING_COMMENT_MAX, RATING_SCORES } from '../../contract/ratings.ts';
import { RATING_TEXT, type ratingMachine, scoreInWords } from '../../machines/rating.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Message } from '../../widgets/Message.tsx';
import { Radio, RadioGroup } from '../../widgets/RadioGroup.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';

export type RatingActor = Actor<typeof ratingMachine>;

/** The score and comment of a rating being given or changed (RatingCard). */
export default function RatingForm({ rating }: { rating: RatingActor }) {
  const score = useSelector(rating, (snapshot) => snapshot.context.score);
  const comment = useSelector(rating, (snapshot) => snapshot.context.comment);
  const error = useSelector(rating, (snapshot) => snapshot.matches('asking') ? snapshot.context.error : null);
  const saving = useSelector(rating, (snapshot) => snapshot.matches('saving'));
  const hadRating = useSelector(rating, (snapshot) => snapshot.context.state?.rating !== null);
  const tooLong = comment.length > RATING_COMMENT_MAX;
  return (
    <form className="lc-rating__form" onSubmit={(event) => { event.preventDefault(); rating.send({ type: 'SUBMIT' }); }}>
      <RadioGroup label="Your rating, from 1 (very poor) to 5 (excellent)" orientation="horizontal" isDisabled={saving}
        value={score === null ? null : String(score)} onChange={(chosen) => rating.send({ type: 'PICK', score: Number(chosen) })}
        description={score === null ? 'Choose a score.' : `You chose ${scoreInWords(score)}.`}>
        <div className="lc-rating__scores">
          {RATING_SCORES.map((value) => (
            <Radio key={value} value={String(value)} variant="pill" aria-label={scoreInWords(value)}>{value}</Radio>
          ))}
        </div>
      </RadioGroup>
      <TextInput label="Comment" type="textarea" rows={3} value={comment} isDisabled={saving}
        onChange={(text) => rating.send({ type: 'EDIT_COMMENT', comment: text })}
        errorMessage={tooLong ? RATING_TEXT.commentTooLong : undefined}
        description={`${comment.length.toLocaleString('en-US')} of ${RATING_COMMENT_MAX.toLocaleString('en-US')} characters`} />
      {error && <Message severity="error">{error}</Message>}
      <Button type="submit" isDisabled={score === null || tooLong} isLoading={saving}>
        {hadRating ? 'Update rating' : 'Send rating'}
      </Button>
    </form>
  );
}
