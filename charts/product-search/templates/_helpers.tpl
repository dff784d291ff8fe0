{{/* Name of the chart, or nameOverride. */}}
{{- define "ps.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Full name: release-chart, or fullnameOverride. */}}
{{- define "ps.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains (include "ps.name" .) .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name (include "ps.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels of every object; pass (dict "ctx" $ "component" "api"). */}}
{{- define "ps.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .ctx.Chart.Name .ctx.Chart.Version | replace "+" "_" }}
{{ include "ps.selector" . }}
app.kubernetes.io/version: {{ .ctx.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
{{- end -}}

{{/* Selector labels; pass (dict "ctx" $ "component" "api"). */}}
{{- define "ps.selector" -}}
app.kubernetes.io/name: {{ include "ps.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "ps.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "ps.serviceAccount" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "ps.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "ps.secretName" -}}
{{- default (include "ps.fullname" .) .Values.api.existingSecret -}}
{{- end -}}

{{- define "ps.elasticsearchURL" -}}
{{- if .Values.elasticsearch.bundled -}}
{{- printf "http://%s-elasticsearch:9200" (include "ps.fullname" .) -}}
{{- else -}}
{{- required "elasticsearch.url is required when elasticsearch.bundled is false" .Values.elasticsearch.url -}}
{{- end -}}
{{- end -}}

{{- define "ps.redisURL" -}}
{{- if .Values.redis.bundled -}}
{{- printf "redis://%s-redis:6379/0" (include "ps.fullname" .) -}}
{{- else -}}
{{- .Values.redis.url -}}
{{- end -}}
{{- end -}}

{{/* Container security context: restricted, read-only root. */}}
{{- define "ps.containerSecurity" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: ["ALL"]
{{- end -}}

{{- define "ps.podSecurity" -}}
runAsNonRoot: true
runAsUser: 65532
runAsGroup: 65532
fsGroup: 65532
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* The indexer Job's spec (operator disabled): the same container the
operator builds, see internal/operator/build.go. */}}
{{- define "ps.indexerJobSpec" -}}
backoffLimit: 6
activeDeadlineSeconds: 3600
template:
  metadata:
    labels:
      {{- include "ps.selector" (dict "ctx" $ "component" "indexer") | nindent 6 }}
  spec:
    restartPolicy: Never
    automountServiceAccountToken: false
    {{- with .Values.imagePullSecrets }}
    imagePullSecrets:
      {{- toYaml . | nindent 6 }}
    {{- end }}
    securityContext:
      {{- include "ps.podSecurity" . | nindent 6 }}
    {{- if .Values.catalog.demoFeeds }}
    initContainers:
      - name: demo-feeds
        image: {{ include "ps.image" . }}
        imagePullPolicy: {{ .Values.image.pullPolicy }}
        command: ["/indexer"]
        args: ["demo", "--out", "/data/demo"]
        resources:
          {{- toYaml .Values.catalog.resources | nindent 10 }}
        securityContext:
          {{- include "ps.containerSecurity" . | nindent 10 }}
        volumeMounts:
          - {name: data, mountPath: /data}
    {{- end }}
    containers:
      - name: sync
        image: {{ include "ps.image" . }}
        imagePullPolicy: {{ .Values.image.pullPolicy }}
        command: ["/indexer"]
        args:
          - sync
          - --config
          - {{ if .Values.catalog.demoFeeds }}/data/demo/retailers.yaml{{ else }}/etc/indexer/retailers.yaml{{ end }}
          - --out
          - /data/catalog.snapshot
          - --quiet
          - --status-file
          - /dev/termination-log
          - --publish
          - elasticsearch
          - --es-url
          - {{ include "ps.elasticsearchURL" . | quote }}
          - --es-index
          - {{ .Values.elasticsearch.index | quote }}
          - --es-keep
          - {{ .Values.catalog.keep | quote }}
          - --es-replicas
          - {{ .Values.catalog.replicas | quote }}
        terminationMessagePolicy: FallbackToLogsOnError
        {{- if .Values.elasticsearch.credentialsSecret }}
        envFrom:
          - secretRef:
              name: {{ .Values.elasticsearch.credentialsSecret }}
        {{- end }}
        env:
          {{- include "ps.telemetryEnv" . | nindent 10 }}
          {{- range .Values.catalog.retailers }}
          {{- if .authorization }}
          - name: {{ printf "FEED_AUTH_%s" (.slug | upper | replace "-" "_") }}
            valueFrom:
              secretKeyRef:
                {{- toYaml .authorization | nindent 16 }}
          {{- end }}
          {{- end }}
        resources:
          {{- toYaml .Values.catalog.resources | nindent 10 }}
        securityContext:
          {{- include "ps.containerSecurity" . | nindent 10 }}
        volumeMounts:
          - {name: config, mountPath: /etc/indexer, readOnly: true}
          - {name: data, mountPath: /data}
    volumes:
      - name: config
        configMap:
          name: {{ include "ps.fullname" . }}-indexer
      - name: data
        emptyDir: {}
{{- end -}}

{{/* Telemetry environment of a container: the pod and namespace from the
downward API, then the OTEL_* variables of .Values.telemetry. */}}
{{- define "ps.telemetryEnv" -}}
- name: K8S_POD_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
- name: K8S_NAMESPACE_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
{{- with .Values.telemetry }}
{{- if .otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ .otlpEndpoint | quote }}
- name: OTEL_EXPORTER_OTLP_PROTOCOL
  value: {{ .protocol | quote }}
- name: OTEL_TRACES_SAMPLER
  value: {{ .sampler | quote }}
{{- if .samplerArg }}
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ .samplerArg | quote }}
{{- end }}
{{- if .headersSecret }}
- name: OTEL_EXPORTER_OTLP_HEADERS
  valueFrom:
    secretKeyRef:
      name: {{ .headersSecret }}
      key: OTEL_EXPORTER_OTLP_HEADERS
{{- end }}
{{- end }}
{{- with .resourceAttributes }}
{{- $attrs := list }}
{{- range $k, $v := . }}{{ $attrs = append $attrs (printf "%s=%v" $k $v) }}{{ end }}
- name: OTEL_RESOURCE_ATTRIBUTES
  value: {{ join "," $attrs | quote }}
{{- end }}
{{- end }}
{{- end -}}
