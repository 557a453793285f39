import { fromPromise } from 'xstate';
import type { NextScreenItem, QuestionPrefill, SubmittedRequest } from '../contract/surveys.ts';
import type { PresignedUrlResponse } from '../contract/uploads.ts';
import { type PostAnswerInput, surveyMachine } from './survey.machine.ts';
import { uploadMachine } from './upload.machine.ts';
import type { StoredAnswer } from '../services/surveys.ts';
import type { UploadFileOptions } from '../services/uploads.ts';

/**
 * A request template previewed as the employee conversation (issue 13): the real survey machine, whose calls to the
 * server are answered here, from the admin's draft questions, as the server would answer them. Nothing is sent: no
 * survey session is begun, no answer stored, no request created, no file uploaded, and no submission counted in the
 * analytics.
 */

/** What a pre-filled question shows in the preview: a sample, as each employee sees what they told us. */
export const PREVIEW_PREFILLS: Record<QuestionPrefill, string> = {
  full_name: 'Jordan Lee',
  phone: '2125550147',
  email: 'jordan.lee@example.com',
  address: '1 Main St\nApt 4\nSpringfield, IL 62701\nUSA',
};

const PREVIEW_SESSION_ID = 0;

/**
 * The preview's file uploads: a chosen file is checked and shown as any upload is, but stays in the browser: no
 * upload address is asked for and no byte is sent.
 */
const previewUploadMachine = uploadMachine.provide({
  actors: {
    requestPresignedUrl: fromPromise<PresignedUrlResponse, { filename: string; requestId?: number }>(async ({ input }) => ({
      key: `preview/${input.filename}`,
      presigned_url: 'about:blank',
    })),
    uploadFile: fromPromise<void, Omit<UploadFileOptions, 'signal'>>(async ({ input }) => input.onProgress?.(100)),
  },
});

/** A preview of `items` (the screen items of the draft, in order), each run with a fresh store of answers. */
export function surveyPreviewOf(items: readonly NextScreenItem[], templateName: string) {
  // The questions answered or skipped in this run, as the server keeps them for a survey session.
  const answered = new Set<number>();
  return surveyMachine.provide({
    actors: {
      beginSurvey: fromPromise<number, { requestSurveyId: number }>(async () => PREVIEW_SESSION_ID),
      fetchNextItem: fromPromise<NextScreenItem | null, { userRequestSurveyId: number }>(
        async () => items.find((item) => !answered.has(item.id)) ?? null,
      ),
      postAnswer: fromPromise<StoredAnswer, PostAnswerInput>(async ({ input }) => {
        answered.add(input.questionId);
        return { id: input.questionId, object_satisfied_id: input.questionId, value: input.value };
      }),
      submitSurvey: fromPromise<SubmittedRequest, { userRequestSurveyId: number }>(async () => previewRequest(templateName)),
      upload: previewUploadMachine,
    },
    actions: { trackSubmission: () => {} },
  });
}

function previewRequest(name: string): SubmittedRequest {
  const now = new Date().toISOString();
  return {
    id: PREVIEW_SESSION_ID,
    external_id: 'preview',
    name,
    status: 'open',
    issued_at: now,
    created_at: now,
    details: null,
    survey_category_name: null,
    survey_category_image_url: null,
  };
}
