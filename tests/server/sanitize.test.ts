import { describe, expect, it } from 'vitest';
import { markdownToSafeHtml, plainTextToHtml, sanitizeReplyHtml } from '../../server/domain/requests/sanitize.ts';

describe('concierge replies: Markdown to safe HTML', () => {
  it('renders the Markdown a concierge writes', () => {
    expect(markdownToSafeHtml('Hi **Erin**,\nthree options:\n\n1. *Rex*\n2. `Max`\n\n> quoted')).toBe(
      '<p>Hi <strong>Erin</strong>,<br />three options:</p>\n<ol>\n<li><em>Rex</em></li>\n<li><code>Max</code></li>\n</ol>\n<blockquote>\n<p>quoted</p>\n</blockquote>',
    );
  });

  it('removes script tags with their contents', () => {
    const html = markdownToSafeHtml('Before\n\n<script>alert("x")</script>\n\nAfter <script src="https://evil.example/x.js"></script>');
    expect(html).not.toMatch(/<script|alert|evil/i);
    expect(html).toContain('Before');
    expect(html).toContain('After');
  });

  it('removes event-handler attributes and inline styles, keeping the text', () => {
    const html = sanitizeReplyHtml(
      '<p onclick="steal()" style="position:fixed">Click</p><a href="https://ok.example" onmouseover="steal()">link</a><b onload=x>bold</b>',
    );
    expect(html).not.toMatch(/onclick|onmouseover|onload|style=|steal/i);
    expect(html).toBe(
      '<p>Click</p><a href="https://ok.example" target="_blank" rel="noopener noreferrer nofollow">link</a><b>bold</b>',
    );
  });

  it('removes javascript: (and data:, vbscript:) links however they are spelled, keeping the link text', () => {
    const attempts = [
      '[md link](javascript:alert(1))',
      '<a href="javascript:alert(1)">raw</a>',
      '<a href="JaVaScRiPt:alert(1)">mixed case</a>',
      '<a href="&#106;avascript:alert(1)">entity</a>',
      '<a href="java\tscript:alert(1)">tab</a>',
      '<a href=" javascript:alert(1)">space</a>',
      '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
      '<a href="vbscript:msgbox(1)">vb</a>',
    ];
    for (const attempt of attempts) {
      const html = markdownToSafeHtml(attempt);
      expect(html, attempt).not.toMatch(/href|javascript|data:|vbscript/i);
      expect(html, attempt).toMatch(/link|raw|mixed case|entity|tab|space|data|vb/);
    }
  });

  it('keeps web, mail and phone links, opening in a new tab without the opener', () => {
    expect(markdownToSafeHtml('[site](https://walkers.example/a?b=1) [write to us](mailto:help@example.com)')).toBe(
      '<p><a href="https://walkers.example/a?b=1" target="_blank" rel="noopener noreferrer nofollow">site</a> ' +
        '<a href="mailto:help@example.com" target="_blank" rel="noopener noreferrer nofollow">write to us</a></p>',
    );
    // A target or rel written by hand cannot take the opener back.
    expect(sanitizeReplyHtml('<a href="tel:+12125551212" target="_self" rel="opener">call</a>')).toBe(
      '<a href="tel:+12125551212" target="_blank" rel="noopener noreferrer nofollow">call</a>',
    );
  });

  it('drops images, frames, forms and styles', () => {
    const html = markdownToSafeHtml(
      '![pixel](https://tracker.example/p.gif)\n\n<iframe src="https://evil.example"></iframe><form action="/x"><input name="a"></form><style>body{display:none}</style><svg onload="x"></svg>',
    );
    expect(html).not.toMatch(/<img|<iframe|<form|<input|<style|<svg|tracker|display:none/i);
  });
});

describe('employee messages: plain text to HTML', () => {
  it('escapes everything, so nothing typed becomes markup', () => {
    expect(plainTextToHtml('<script>alert("x")</script> & <b onclick=\'y\'>')).toBe(
      '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b onclick=&#39;y&#39;&gt;</p>',
    );
  });

  it('keeps paragraphs and line breaks, and trims the edges', () => {
    expect(plainTextToHtml('  Hello\r\nthere\n\n\n  Second paragraph  \n  ')).toBe('<p>Hello<br>there</p><p>Second paragraph</p>');
  });
});
