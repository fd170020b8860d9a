#ifndef ABRLAB_CLUA_SHIM_DASHJS_H
#define ABRLAB_CLUA_SHIM_DASHJS_H

/* What dash.js 5.1.1's default rules make of the session before a decision, on the dashjs profile
   (DashJSAdvisor). Levels are 0-based here; -1 and NaN where there is none. */
typedef struct abrl_dashjs {
    long long level;
    long long throughput_rule_level;
    long long bola_level;
    long long insufficient_buffer_level;
    long long switch_history_level;
    double throughput_kbps;
    double safe_throughput_kbps;
    double latest_throughput_kbps;
    double buffer_s;
    double bola_placeholder_s;
    double bola_delay_s;
    int bola_active;
    int bola_phase;           /* 0 startup, 1 steady, 2 one bitrate; -1 before BOLA's first call */
} abrl_dashjs;

#endif
