select region_id, name, 7 as batch from {{ ref('regions') }}
