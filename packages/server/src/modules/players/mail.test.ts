import { describe, expect, it } from 'vitest';
import { effectiveTemplate, playerCodeMail } from './mail.js';

describe("a player's code mail", () => {
  it("carries the player's name as registered, whatever it holds: $& and $` are text, not replacement patterns", () => {
    const settings = effectiveTemplate('Wolf Run', {
      confirmation_subject: 'Hi {{player_name}} code {{code}}',
      confirmation_body: 'Dear {{player_name}}, your code is {{code}}. Bye.',
      reset_subject: null,
      reset_body: null,
      reply_to: null,
    });
    for (const name of ['x$`y', "a$'b", 'c$&d', 'e$$f', 'g$1h']) {
      const mail = playerCodeMail(settings, 'p@example.com', name, 'confirm_sign_up', '150323');
      expect(mail.subject).toBe(`Hi ${name} code 150323`);
      expect(mail.text).toBe(`Dear ${name}, your code is 150323. Bye.`);
    }
  });
});
