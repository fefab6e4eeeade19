select m.region_id, count(*) as n from {{ ref('mart_1') }} m join {{ ref('mart_4') }} using (region_id) group by 1
