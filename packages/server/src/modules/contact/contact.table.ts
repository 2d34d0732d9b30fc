export interface ContactMessageTable {
  id: string;
  email: string;
  message: string;
  /** The signed-in developer who wrote it, if any. */
  developer_id: string | null;
  created_at: number;
}

type NewsletterState = 'pending' | 'confirmed' | 'unsubscribed';

export interface NewsletterSubscriptionTable {
  email: string;
  state: NewsletterState;
  /** SHA-256 of the double opt-in token; null once used. */
  confirm_token_hash: string | null;
  confirm_expires_at: number | null;
  /** Kept as issued: every newsletter mail carries it in its unsubscribe link. */
  unsubscribe_token: string;
  created_at: number;
  updated_at: number;
}
