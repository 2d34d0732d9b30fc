/**
 * The checks the plugin scenario prints as `HOWL-TEST PASS <check>`, per phase, the same on Godot 3
 * and Godot 4: the runner fails when an engine's set differs, so both plugins stay in lockstep.
 */
export const ENGINE_CHECKS = {
  main: [
    // Set-up and the transport
    'not_configured',
    'ping',
    'bad_key',
    'headers_sent',
    'refused_port',
    'never_answers_times_out',
    'server_500',
    'server_500_envelope',
    'non_json_body',
    'empty_body',
    'retry_after_429',
    'two_calls_in_flight',
    'signals_emitted',
    'paused_game_calls',
    // Checks before sending
    'empty_player_name',
    'non_numeric_score',
    'metadata_not_dictionary',
    'player_data_engine_object',
    'player_data_too_large',
    // Scores
    'save_score',
    'save_score_metadata',
    'get_scores',
    'get_scores_all',
    'get_scores_by_player',
    'get_top_score_by_player',
    'score_position_by_id',
    'score_position_by_value',
    'scores_around',
    'time_based_period',
    'names_encoded',
    'delete_score',
    'wipe_leaderboard',
    // Players
    'register_email_player',
    'confirm_email',
    'resend_confirmation_code',
    'register_username_player',
    'login_wrong_password',
    'login_player',
    'current_player',
    'token_sent_on_writes',
    'session_expiry',
    'password_reset',
    'logout_ends_session',
    'logout_retry_carries_token',
    'login_remember_me',
    // Player data
    'player_data_save_get',
    'player_data_merge',
    'player_data_if_version',
    'player_data_delete_keys',
    'player_data_delete_all',
    'character_data',
    'game_state',
    // Built-in scenes
    'scene_leaderboard',
    'scene_leaderboard_periods',
    'scene_login',
    'scene_register',
    'scene_register_username',
    'scene_confirm_email',
    'scene_reset_password',
    // The site's samples
    'samples',
  ],
  offline: ['resume_offline_keeps_session'],
  resume: ['resume_refused_key_keeps_session', 'resume_session', 'resumed_player_logout'],
} as const;

export type EnginePhase = keyof typeof ENGINE_CHECKS;
