// What the gallery's views return, as types only: the gallery operations' results name them, and
// they stay free of the catalog's types (the published declarations do not reach drizzle).

export interface GalleryProject {
  readonly project_id: string;
  readonly title: string | null;
  readonly profile: string;
  readonly flow_url: string;
  readonly image_count: number;
  readonly video_count: number;
  readonly created_at: string;
  /** The newest catalogued media's time, else the project's. */
  readonly last_activity: string;
  /** The newest media with a local file (the card's cover). */
  readonly cover_media_id: string | null;
}

export interface GalleryMediaItem {
  readonly media_id: string;
  readonly kind: 'image' | 'video';
  readonly profile: string;
  readonly project_id: string | null;
  readonly model: string | null;
  readonly aspect_ratio: string | null;
  readonly width: number | null;
  readonly height: number | null;
  readonly duration_seconds: number | null;
  readonly created_at: string;
  readonly prompt: string | null;
  /** A local copy is recorded (0: made, perhaps billed, not downloaded). */
  readonly has_file: boolean;
}

export interface GalleryFilters {
  readonly project?: string | undefined;
  readonly kind?: 'image' | 'video' | undefined;
  readonly model?: string | undefined;
  readonly profile?: string | undefined;
  /** ISO date (YYYY-MM-DD) or time: made on or after. */
  readonly since?: string | undefined;
  /** ISO date (YYYY-MM-DD, that whole day included) or time: made on or before. */
  readonly until?: string | undefined;
  /** Words that must all appear in the prompt (case-insensitive). */
  readonly text?: string | undefined;
  readonly limit?: number | undefined;
}

export interface GalleryMediaPage {
  readonly items: readonly GalleryMediaItem[];
  /** How many matched (before `limit`). */
  readonly matched: number;
  /** The values the filters offer, from the rows read. */
  readonly facets: { readonly models: readonly string[]; readonly profiles: readonly string[] };
  /** Every catalogued row was read (false: only the newest GALLERY_SCAN_PER_KIND of each kind). */
  readonly complete: boolean;
}

export interface GalleryFile {
  readonly path: string;
  readonly bytes: number;
  readonly media_type: string | null;
  readonly exists: boolean;
  /** Inside the output directory: the gallery serves only these. */
  readonly servable: boolean;
}

export interface GalleryLinked {
  readonly media_id: string;
  readonly kind: 'image' | 'video';
  readonly role: string;
  readonly has_file: boolean;
}

export interface GalleryMediaDetail {
  readonly media_id: string;
  readonly kind: 'image' | 'video';
  readonly profile: string;
  readonly other_profiles: readonly string[];
  readonly project_id: string | null;
  readonly project_title: string | null;
  readonly flow_url: string | null;
  readonly status: string;
  readonly created_at: string;
  /** Every recorded parameter of the asset (model, aspect, size, duration, seed, Flow's ids, metadata). */
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly files: readonly GalleryFile[];
  readonly operation: {
    readonly operation_id: number;
    readonly command: string;
    readonly mode: string | null;
    readonly status: string;
    readonly surface: string | null;
    readonly prompt: string | null;
    readonly expanded_prompt: string | null;
    readonly prompt_redacted: boolean;
    readonly model: string | null;
    readonly aspect_ratio: string | null;
    readonly started_at: string;
    readonly completed_at: string | null;
    readonly credits_quoted: number | null;
    readonly credits_spent: number | null;
    readonly task_id: string | null;
    readonly inputs: readonly GalleryLinked[];
    /** Other media the same operation made. */
    readonly siblings: readonly GalleryLinked[];
  } | null;
  /** Operations that used this media as an input (i2v, chains, references), with what they made. */
  readonly derived: ReadonlyArray<{
    readonly operation_id: number;
    readonly command: string;
    readonly mode: string | null;
    readonly status: string;
    readonly role: string;
    readonly started_at: string;
    readonly outputs: readonly GalleryLinked[];
  }>;
  readonly chains: ReadonlyArray<{ readonly chain_id: string; readonly status: string }>;
  /** The CLI command that makes it again (a new generation: it spends as the first did). */
  readonly recreate_command: string | null;
  /** Fetch the file again from Flow (spends nothing). */
  readonly download_command: string;
}

export interface GalleryFailure {
  readonly operation_id: number;
  readonly profile: string;
  readonly command: string;
  readonly mode: string | null;
  readonly project_id: string | null;
  readonly model: string | null;
  readonly prompt: string | null;
  readonly code: string | null;
  readonly title: string;
  readonly detail: string | null;
  readonly retryable: boolean;
  readonly hint: string | null;
  readonly incident_id: string | null;
  readonly started_at: string;
  readonly task_id: string | null;
  /** Media Flow made (and may have billed) that have no local file: fetch them again, for nothing. */
  readonly not_downloaded: ReadonlyArray<{ readonly media_id: string; readonly recovery_command: string }>;
}

export interface GalleryTask {
  readonly task_id: string;
  readonly profile: string;
  readonly task_type: string;
  readonly status: string;
  readonly phase: string | null;
  readonly may_have_spent: boolean;
  readonly prompt: string | null;
  readonly project_id: string | null;
  readonly media_ids: readonly string[];
  readonly created_at: string;
  readonly updated_at: string;
}

export interface GalleryMovieItem {
  /** The movie id (its story run's task id). */
  readonly movie_id: string;
  readonly profile: string;
  readonly title: string;
  /** pending, running, completed, failed, cancelled, indeterminate. */
  readonly status: string;
  /** The movie's clips once stitched, else its planned steps. */
  readonly clip_count: number;
  /** The stitched movie's decoded length (s), once made. */
  readonly seconds: number | null;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface GalleryMoviePage {
  readonly items: readonly GalleryMovieItem[];
  /** How many movies were read (before `limit`). */
  readonly matched: number;
  /** Every movie was read (false: only the newest GALLERY_SCAN_PER_KIND). */
  readonly complete: boolean;
}

export interface GalleryMovieStep {
  readonly index: number;
  /** The scene it belongs to (0-based). */
  readonly scene: number;
  readonly mode: string;
  readonly prompt: string;
  /** pending, running, done, failed, indeterminate. */
  readonly status: string;
  readonly task_id: string | null;
  readonly flow_media_id: string | null;
  /** A failed or indeterminate step's problem title and detail. */
  readonly error_title: string | null;
  readonly error_detail: string | null;
}

export interface GalleryMovieClip {
  readonly scene: number;
  /** The step that made it; null for a scene over an existing video. */
  readonly step: number | null;
  readonly media_id: string | null;
  readonly prompt: string | null;
  readonly in_seconds: number;
  readonly out_seconds: number;
}

export interface GalleryMovieDetail {
  readonly movie_id: string;
  readonly profile: string;
  readonly title: string;
  readonly status: string;
  readonly flow_project_id: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly steps: readonly GalleryMovieStep[];
  /** The stitched movie's clips in order, once made. */
  readonly clips: readonly GalleryMovieClip[];
  readonly output: { readonly path: string; readonly seconds: number; readonly frames: number } | null;
  readonly timeline: string | null;
  /** The stitched file may be served (galleryMovieFile finds it). */
  readonly playable: boolean;
  /** The timeline may be served. */
  readonly timeline_servable: boolean;
  /** Why the movie stopped, when it did not complete. */
  readonly error_title: string | null;
}
