{{/* The release's name for every object, at most 63 characters. */}}
{{- define "mancala.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "mancala.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: server
{{- end -}}

{{- define "mancala.labels" -}}
{{ include "mancala.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* The Secret holding the operator key's hash. */}}
{{- define "mancala.authSecret" -}}
{{- .Values.auth.existingSecret | default (printf "%s-auth" (include "mancala.fullname" .)) -}}
{{- end -}}

{{/* Values that cannot work, refused with the value's name. */}}
{{- define "mancala.validate" -}}
{{- if not (has .Values.store.type (list "redis" "embedded")) -}}
{{- fail (printf "store.type must be redis or embedded, not %q" .Values.store.type) -}}
{{- end -}}
{{- if and (eq .Values.store.type "embedded") (or (gt (int .Values.replicaCount) 1) .Values.autoscaling.enabled) -}}
{{- fail "store.type embedded keeps matches in one pod's file: set replicaCount 1 and autoscaling.enabled false, or use store.type redis" -}}
{{- end -}}
{{- if and .Values.auth.required (not .Values.auth.operatorKeySha256) (not .Values.auth.existingSecret) -}}
{{- fail "auth.required needs the operator key's hash: set auth.operatorKeySha256 (from `mancala operator-key`) or auth.existingSecret" -}}
{{- end -}}
{{- if and .Values.auth.operatorKeySha256 (not (regexMatch "^[0-9a-f]{64}$" .Values.auth.operatorKeySha256)) -}}
{{- fail "auth.operatorKeySha256 must be 64 lowercase hex digits (the hash `mancala operator-key` prints, not the key)" -}}
{{- end -}}
{{- end -}}
