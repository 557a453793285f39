import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { imagePreviewMachine } from '../../src/machines/imagePreview.machine.ts';
import { ImageThumbnail } from '../../src/views/console/ImageThumbnail.tsx';
import { inApp, startTestApp } from './appSystem.support.tsx';
import { serverRefusal } from './httpFailures.support.ts';
import {
  type EventExecutors,
  type StateAssertions,
  doneEvent,
  errorEvent,
  expectFullCoverage,
  flowModel,
  inspectedActors,
  pendingCalls,
  runPath,
  settlementExecutors,
} from './modelPaths.support.ts';
import { type SentCall, fakeNetwork } from './network.support.ts';

const FILE_KEY = 'uploads/7/photo.png';
const HREF = `/attachments/${encodeURIComponent(FILE_KEY)}`;
const ADDRESS = 'http://localhost:3000/api/storage/photo.png?expires=1&signature=s';

const { paths, titled } = flowModel(imagePreviewMachine, {
  input: { fileKey: FILE_KEY },
  events: [
    doneEvent('lookUpPreview', ADDRESS, 'address found'),
    errorEvent('lookUpPreview', serverRefusal(404, 'File not found'), 'no address'),
    { label: 'the image does not load', event: { type: 'IMAGE_FAILED' } },
  ],
});

let sent: SentCall[];
const link = () => screen.getByRole('link');

const states: StateAssertions<typeof imagePreviewMachine> = {
  loading: () => {
    expect(link()).toHaveTextContent('Loading image (new tab)');
    expect(sent).toEqual([{ method: 'GET', path: 'uploads/expiring_url', body: undefined, query: { key: FILE_KEY } }]);
  },
  shown: () => {
    // The thumbnail opens the file through the Attachment route, in a new tab.
    expect(link()).toHaveAttribute('href', HREF);
    expect(link()).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('img', { name: 'Image attachment (opens in a new tab)' })).toHaveAttribute('src', ADDRESS);
  },
  failed: () => {
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(link()).toHaveTextContent('Open image (new tab)');
    expect(link()).toHaveAttribute('href', HREF);
  },
};

const events: EventExecutors<typeof imagePreviewMachine> = {
  ...settlementExecutors(imagePreviewMachine, pendingCalls),
  IMAGE_FAILED: () => {
    fireEvent.error(screen.getByRole('img'));
  },
};

describe('an image thumbnail of the console thread', () => {
  beforeEach(() => {
    ({ sent } = fakeNetwork([
      { method: 'GET', path: /^uploads\/expiring_url$/, id: 'lookUpPreview', answer: (address: string) => ({ expiring_url: address }) },
    ]));
    render(inApp(startTestApp(), <ImageThumbnail fileKey={FILE_KEY} />));
  });
  afterEach(() => pendingCalls.clear());

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(imagePreviewMachine), states, events);
  });
});

describe('image thumbnail model coverage', () => {
  it('asserts and reaches every state, and executes every event', () => {
    expectFullCoverage(imagePreviewMachine, paths, states, events);
  });
});
