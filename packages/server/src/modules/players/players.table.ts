/** A game's own wording for its players' code mails; a null field means the default. */
export interface PlayerEmailTemplateTable {
  game_id: string;
  confirmation_subject: string | null;
  confirmation_body: string | null;
  reset_subject: string | null;
  reset_body: string | null;
  reply_to: string | null;
  updated_at: number;
}
