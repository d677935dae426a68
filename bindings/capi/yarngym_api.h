/*
 * yarngym_api.h: the declarations of libyarngym's C ABI, included by
 * yarngym.h (which a C client includes: it adds <stdint.h>, the include
 * guard and extern "C"). This file holds only what cffi's cdef reads as it
 * is: comments, integer #defines, structs and prototypes, so Python declares
 * the ABI from this file with no preprocessing (bindings/python's _native).
 * Keep it so: no #include, #if or other directive here.
 */

/* The version of this ABI. A client checks yg_abi_version against it. */
#define YG_ABI_VERSION 2

/* Status codes. */
#define YG_OK 0
#define YG_ERR_INVALID 1 /* bad argument: NULL buffer, bad size, bad config */
#define YG_ERR_HANDLE 2  /* unknown or freed handle */
#define YG_ERR_ENV 3     /* the environment refused: NaN action, step after end, ... */
#define YG_ERR_PANIC 4   /* a Go panic, recovered: the handle is unusable from then on (see Rules) */

/* Flags for yg_batch_new. */
#define YG_FLAG_NO_AUTORESET 1 /* see yg_batch_step */

/* What yg_batch_string returns: newline-separated names, or JSON. */
#define YG_STR_FEATURES 0 /* observation feature names, obs_dim lines */
#define YG_STR_ACTIONS 1  /* controlled parameter names, act_dim lines */
#define YG_STR_INFO 2     /* info scalar names, info_dim lines */
#define YG_STR_CONFIG 3   /* the config with defaults filled in, JSON */

/* What yg_registry returns, as JSON. */
#define YG_REG_TASKS 0      /* the tuning tasks: id, gym_id, env config, seeds, default, grid, action box */
#define YG_REG_BASELINES 1  /* each task's saved baselines table: {"ID": {...}} */
#define YG_REG_POLICIES 2   /* policies: name, doc, params (name, range, default, integer), state */
#define YG_REG_SCENARIOS 3  /* built-in scenarios: name, paper, policy, description */
#define YG_REG_OBJECTIVES 4 /* reward objectives: name, stall_safe */
#define YG_REG_CONFIG 5     /* env.Config's fields: key (JSON), type (Go) */

/* What yg_run_string returns, as JSON. */
#define YG_RUN_SUMMARY 0     /* the run's summary, as yarngym run's summary.json */
#define YG_RUN_JOB_STRINGS 1 /* {"name": [...], "app": [...], "framework": [...], "queue": [...]}, one per job */
#define YG_RUN_ENUMS 2       /* the names of yg_job.state and yg_task's kind, container, locality, outcome codes */
#define YG_RUN_STATE_NAMES 3 /* the policy's state variables, the columns of yg_run_state */

/* One job of a finished run (yg_run_jobs), as a row of yarngym run's jobs.csv. */
typedef struct {
	int64_t id;
	int32_t state; /* an index into YG_RUN_ENUMS "state" */
	int32_t tasks;
	double submit_s;
	double admit_s;  /* NaN if never admitted */
	double start_s;  /* NaN if no container ever started */
	double finish_s; /* NaN if unfinished */
	double goal_s;   /* NaN without a completion-time goal */
} yg_job;

/* One task attempt of a finished run (yg_run_tasks), as a row of tasks.csv. */
typedef struct {
	int32_t job;
	int32_t stage; /* -1 for an ApplicationMaster */
	int32_t index;
	int32_t attempt;
	int32_t node;
	int8_t kind;      /* YG_RUN_ENUMS "kind" */
	int8_t container; /* YG_RUN_ENUMS "container" */
	int8_t locality;  /* YG_RUN_ENUMS "locality" */
	int8_t outcome;   /* YG_RUN_ENUMS "outcome" */
	double start_s;
	double end_s;
} yg_task;

/* One timeline sample of a finished run (yg_run_timeline; "timeline_s" > 0). */
typedef struct {
	double t_s;
	double vcores_guaranteed;
	double vcores_opportunistic;
	double cpu_used;        /* CPU actually consumed, capped per node at its cores */
	double mem_mb_reserved; /* held by all containers */
	double mem_mb_used;     /* actual demand */
	int32_t containers_guaranteed;
	int32_t containers_opportunistic;
	int32_t pending_tasks;
	int32_t waiting_jobs;
	int32_t running_jobs;
	int32_t _pad;
} yg_sample;

/* The ABI version: *version = YG_ABI_VERSION of the library. */
int32_t yg_abi_version(int32_t *version);

/*
 * The calling thread's last error message. *len (if not NULL) is set to the
 * message's length in bytes without the terminating NUL (0: no error yet);
 * at most cap-1 bytes are copied into buf, NUL-terminated (nothing when
 * buf is NULL or cap is 0).
 */
int32_t yg_last_error(char *buf, int32_t cap, int32_t *len);

/*
 * Sets the Go scheduler's thread count (GOMAXPROCS) to n when n > 0, and
 * reports the count before the call in *previous (if not NULL); n <= 0
 * only reads it. A batch's worker count is fixed when it is created.
 * n may be at most max(256, 4 x the CPUs the process may run on): the
 * simulator is CPU-bound, and a huge count exhausts memory (each thread
 * slot has its own scheduler state); a larger n is YG_ERR_INVALID and
 * changes nothing.
 */
int32_t yg_set_threads(int32_t n, int32_t *previous);

/*
 * One of the Go registries (YG_REG_*) as JSON, the one source of these
 * tables for every binding. *len is set to its length in bytes without the
 * NUL; at most cap-1 bytes are copied into buf, NUL-terminated. Call with
 * cap 0 to learn the length.
 */
int32_t yg_registry(int32_t what, char *buf, int32_t cap, int32_t *len);

/*
 * Creates a batch of n >= 1 environments from config_json (read-only,
 * NUL-terminated UTF-8) stepped by `workers` goroutines (0: the thread
 * count; 1: all on the calling thread). flags: 0 or YG_FLAG_NO_AUTORESET.
 * On success *handle is the new handle. Call yg_batch_reset before
 * yg_batch_step.
 */
int32_t yg_batch_new(char *config_json, int32_t n, int32_t workers, int32_t flags, int64_t *handle);

/* Frees a batch. Freeing twice, or an unknown handle, returns YG_OK. */
int32_t yg_batch_free(int64_t handle);

/* The batch's sizes. Any output pointer may be NULL. */
int32_t yg_batch_dims(int64_t handle, int32_t *n, int32_t *obs_dim, int32_t *act_dim, int32_t *info_dim,
                      int32_t *workers);

/*
 * One environment's spaces: obs_low/obs_high get obs_dim floats,
 * act_low/act_high act_dim floats (each may be NULL). Every bound is finite.
 */
int32_t yg_batch_spaces(int64_t handle, float *obs_low, float *obs_high, float *act_low, float *act_high);

/*
 * A text property (YG_STR_*). *len is set to its length in bytes without
 * the NUL; at most cap-1 bytes are copied into buf, NUL-terminated. Call
 * with cap 0 to learn the length.
 */
int32_t yg_batch_string(int64_t handle, int32_t what, char *buf, int32_t cap, int32_t *len);

/*
 * Resets the environments with seeds[i] (read-only, n values) where
 * mask[i] != 0 (read-only, n bytes; NULL resets all). Writes their first
 * observations into obs (n*obs_dim; other envs' rows are left alone) and,
 * if info is not NULL, their info scalars into info (n*info_dim).
 */
int32_t yg_batch_reset(int64_t handle, uint64_t *seeds, uint8_t *mask, float *obs, double *info);

/*
 * Steps every environment with its action (read-only, n*act_dim values;
 * may be NULL when act_dim is 0): out come obs (n*obs_dim), rewards (n),
 * terminated and truncated (n bytes, 0 or 1) and, if not NULL, info
 * (n*info_dim).
 *
 * Autoreset (default) is gymnasium's SAME_STEP: an env whose episode ends
 * in this step writes the ending observation to final_obs (n*obs_dim, may
 * be NULL; other rows are left alone), is reset at once with the seed
 * derived from its episode seed, and its new episode's first observation
 * goes to obs; its reward, flags and info are those of the ending step.
 * With YG_FLAG_NO_AUTORESET an ended env is left as it is, final_obs is not
 * written, and stepping it again is an error until it is reset.
 *
 * Every env's action (and, without autoreset, that no env has ended) is
 * checked before any env steps: on such an error nothing was stepped. On a
 * later error (inside an env's step) the outputs may be partly written.
 */
int32_t yg_batch_step(int64_t handle, double *actions, float *obs, double *rewards, uint8_t *terminated,
                      uint8_t *truncated, float *final_obs, double *info);

/* The current episode seed of each environment (n values). */
int32_t yg_batch_seeds(int64_t handle, uint64_t *seeds);

/*
 * Runs a scenario to its end, as `yarngym run` does, from config_json
 * (read-only): {"scenario": "quick", "sets": ["KEY=VALUE"], "policy": "fair",
 * "seed": 1, "controller": "model.json", "record_tasks": true,
 * "timeline_s": 0}; only scenario is required. timeline_s is 0 (the
 * scenario's sampling) or at least 0.001 (the engine counts whole
 * milliseconds). *handle is the finished run's handle (from the same
 * sequence as batch handles, never reused).
 */
int32_t yg_run_new(char *config_json, int64_t *handle);

/* Frees a run. Freeing twice, or an unknown handle, returns YG_OK. */
int32_t yg_run_free(int64_t handle);

/* The run's numbers of jobs, recorded task attempts, timeline samples and
 * policy state variables (any may be NULL). */
int32_t yg_run_counts(int64_t handle, int64_t *jobs, int64_t *tasks, int64_t *samples, int64_t *state_vars);

/* A text property of the run (YG_RUN_*), as yg_batch_string. */
int32_t yg_run_string(int64_t handle, int32_t what, char *buf, int32_t cap, int32_t *len);

/* Writes the run's jobs into out (n must be the job count), in job order. */
int32_t yg_run_jobs(int64_t handle, yg_job *out, int64_t n);

/*
 * Plays a task's static action or trained model on the given seeds, one
 * episode each, and writes their returns into returns (n = the number of
 * seeds), from config_json (read-only): {"task": "AutoAdmin-v0", "action":
 * [1.5] or "model": "model.json", "seeds": [1000, 1001], "workers": 0}. The
 * black-box tuners score candidates this way (paired: the same seeds).
 */
int32_t yg_evaluate(char *config_json, double *returns, int32_t n);

/* Writes the run's task attempts into out (n must be the count), ordered by
 * job, stage, index and attempt as in tasks.csv. */
int32_t yg_run_tasks(int64_t handle, yg_task *out, int64_t n);

/* Writes the run's timeline samples into out (n must be the sample count). */
int32_t yg_run_timeline(int64_t handle, yg_sample *out, int64_t n);

/* Writes the policy's state at each sample into out, row-major: samples x
 * state variables (n must be their product; names: YG_RUN_STATE_NAMES). */
int32_t yg_run_state(int64_t handle, double *out, int64_t n);
